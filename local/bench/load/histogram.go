package load

import (
	"math/bits"
	"time"
)

// Histogram counts latencies in microsecond buckets: exact below 256 µs, then 128 buckets per
// power of two (under 1% error) up to about 76 hours. It has a fixed size, so a long run costs
// no more memory than a short one, and merging worker histograms is a sum.
type Histogram struct {
	counts [histBuckets]uint64
	n      uint64
	sum    time.Duration
	max    time.Duration
}

const (
	histExact   = 256 // values below are their own bucket
	histSub     = 128 // buckets per power of two above
	histShifts  = 30
	histBuckets = histExact + histShifts*histSub
)

func bucketOf(us uint64) int {
	if us < histExact {
		return int(us)
	}
	shift := bits.Len64(us) - 8 // us>>shift is in [128, 255]
	if shift > histShifts {
		return histBuckets - 1
	}
	return histExact + (shift-1)*histSub + int(us>>shift) - histSub
}

// bucketValue returns the middle of bucket i, in microseconds.
func bucketValue(i int) float64 {
	if i < histExact {
		return float64(i)
	}
	i -= histExact
	shift := i/histSub + 1
	lo := uint64(histSub+i%histSub) << shift
	return float64(lo) + float64(uint64(1)<<shift)/2
}

// Record adds one latency.
func (h *Histogram) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d/time.Microsecond))]++
	h.n++
	h.sum += d
	h.max = max(h.max, d)
}

// Merge adds o's counts to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	h.max = max(h.max, o.max)
}

// Count returns the number of recorded latencies.
func (h *Histogram) Count() uint64 { return h.n }

// Max returns the largest recorded latency.
func (h *Histogram) Max() time.Duration { return h.max }

// Mean returns the average latency, or 0 when empty.
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Quantile returns the latency below which a fraction q (0..1) of the recorded ones fall, to
// within a bucket; 0 when empty.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	q = min(max(q, 0), 1)
	rank := uint64(q*float64(h.n-1)) + 1 // 1-based rank of the wanted value
	if rank >= h.n {
		return h.max
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(time.Duration(bucketValue(i)*float64(time.Microsecond)), h.max)
		}
	}
	return h.max
}
