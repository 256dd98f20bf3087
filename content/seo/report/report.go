// Package report audits a site's published records for search-engine problems (notes 14.7):
// titles and descriptions, canonicals, robots against the sitemap, social images, internal
// links in Markdown bodies and navigation, redirect chains and cycles, and orphan pages. Each
// issue names its rule, severity, subject, what is wrong and what to do; the score starts at
// 100 and loses points per issue. Reports are kept as snapshots per site under
// seo.operationalStoragePath. It has no HTTP: the SEO API group and `cms seo report` call it.
package report

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"time"
)

// Severities, lowest first, and the points each costs the score.
const (
	Info     = "info"
	Warning  = "warning"
	Error    = "error"
	Critical = "critical"
)

var penalty = map[string]int{Info: 1, Warning: 4, Error: 10, Critical: 20}

// MaxIssues bounds the issues one report keeps (the summary still counts every one).
const MaxIssues = 20_000

// Title and description lengths (characters) below or above which a warning is given.
const (
	TitleMin       = 10
	TitleMax       = 60
	DescriptionMin = 50
	DescriptionMax = 160
)

// Subject is what an issue is about.
type Subject struct {
	ID   string `json:"id"`   // "blog/hello" for an entry, the handle for a navigation or redirect
	Type string `json:"type"` // entry, term, navigation, redirect
	Site string `json:"site"`
	Path string `json:"path,omitempty"` // the public path, when it has one
}

// Issue is one problem found.
type Issue struct {
	RuleID         string  `json:"ruleId"`
	Severity       string  `json:"severity"`
	Subject        Subject `json:"subject"`
	Message        string  `json:"message"`
	Recommendation string  `json:"recommendation"`
	Field          string  `json:"field,omitempty"`
}

// Summary counts the issues by severity.
type Summary struct {
	Total    int `json:"total"`
	Info     int `json:"info"`
	Warning  int `json:"warning"`
	Error    int `json:"error"`
	Critical int `json:"critical"`
}

// Report is one audit of one site.
type Report struct {
	Version   int     `json:"version"`
	ID        string  `json:"id"`
	Site      string  `json:"site"`
	CreatedAt string  `json:"createdAt"`
	Score     int     `json:"score"`
	Summary   Summary `json:"summary"`
	Records   int     `json:"records"` // published records audited
	Issues    []Issue `json:"issues"`
	Truncated bool    `json:"truncated,omitempty"` // more than MaxIssues were found
}

// Failing reports whether the report has errors or criticals (`cms seo report` exits 1).
func (r *Report) Failing() bool { return r.Summary.Error+r.Summary.Critical > 0 }

// finish counts, scores and bounds the issues.
func finish(site string, issues []Issue, records int, now time.Time) *Report {
	r := &Report{Version: 1, ID: newID(), Site: site, CreatedAt: now.UTC().Format(time.RFC3339), Records: records}
	score := 100
	for _, is := range issues {
		switch is.Severity {
		case Info:
			r.Summary.Info++
		case Warning:
			r.Summary.Warning++
		case Error:
			r.Summary.Error++
		case Critical:
			r.Summary.Critical++
		}
		score -= penalty[is.Severity]
	}
	r.Summary.Total = len(issues)
	// The worst first, so a truncated report keeps what matters, and in one order every time.
	slices.SortStableFunc(issues, func(a, b Issue) int {
		if c := penalty[b.Severity] - penalty[a.Severity]; c != 0 {
			return c
		}
		if c := strings.Compare(a.RuleID, b.RuleID); c != 0 {
			return c
		}
		if c := strings.Compare(a.Subject.ID, b.Subject.ID); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	r.Score = max(score, 0)
	if len(issues) > MaxIssues {
		issues, r.Truncated = issues[:MaxIssues], true
	}
	if issues == nil {
		issues = []Issue{}
	}
	r.Issues = issues
	return r
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "seo_report_" + hex.EncodeToString(b[:])
}
