package sitegen

import (
	"math/rand/v2"
	"strings"
)

// Word lists for titles, names and bodies: plain lower-case ASCII, so every generated scalar is
// safe as an unquoted YAML string.
var (
	words = strings.Fields(`able about above across after again against almost along already also always
		amber answer anyone apple april around arrive autumn balance basket battery beach before begin
		behind below better between beyond binary bitter blossom border bottle branch bridge bright
		broad budget buffer build button cabin cable camera candle canvas carbon careful carpet castle
		center chapter charge circle civic clever climate closet cloud coast coffee collect colour
		common copper corner cotton county course credit crystal culture current cycle damp daily
		dancer decade deep delta desert detail dinner direct distant doctor double dragon dream
		driver during early easy eastern echo edge effort eight elder empty energy engine enough entire
		equal escape evening exact fabric fairly family famous farmer faster feather fellow fiction
		field final finger finish first flavor flight floor flower follow forest formal fossil frame
		fresh friend frozen future galaxy garden gentle giant ginger glass global golden gravel green
		growth guitar habit harbor harvest heavy hidden highway history hollow honest horizon hunter
		idea image inland insect island jacket jersey journal jungle kernel kettle kitchen ladder
		lake language laser later leader lemon letter level light limit linen liquid little local
		lumber magnet manner marble market meadow medium memory middle mirror modern moment morning
		motion mountain museum native nature needle network night noble normal north number object
		ocean office orange orbit output oxygen paddle palace paper parcel pattern pebble pencil
		people pepper planet pocket polar pretty public puzzle quiet rabbit random rapid record
		river rocket rubber saddle salmon sample season second secret select signal silver simple
		single sketch smooth socket solid spirit spring square stable steady stone stream street
		strong studio summer sunset supply switch symbol system table tender thunder timber token
		tower travel tunnel united useful valley velvet vessel violet visual volume wander window
		winter wooden yellow young zipper`)
	firstNames = strings.Fields(`ada alan anna boris carla dmitri elena farah grace hiro ines jonas kara
		liam maya nadia omar paula quinn rosa sami tara umar vera wen yusuf zoe`)
	lastNames = strings.Fields(`abara becker costa dubois evans fischer garcia hansen ito jensen kowalski
		lindqvist moreau novak okafor petrov quist rossi silva tanaka ueda varga weber xu yilmaz zhang`)
	tagWords = strings.Fields(`go markdown yaml git performance security design testing release
		community tooling cloud`)
)

// body returns about size bytes of Markdown: headed sections of paragraphs, bullet and numbered
// lists, with some emphasis, code spans and links, so a renderer has real work to do.
func body(r *rand.Rand, size int) string {
	var b strings.Builder
	b.Grow(size + 256)
	section := 0
	for b.Len() < size {
		if section > 0 || r.IntN(2) == 0 {
			b.WriteString("## ")
			sentence(&b, r, 2+r.IntN(4), false)
			b.WriteString("\n\n")
		}
		section++
		for range 1 + r.IntN(2) {
			for s := range 2 + r.IntN(4) {
				if s > 0 {
					b.WriteByte(' ')
				}
				sentence(&b, r, 6+r.IntN(12), true)
			}
			b.WriteString("\n\n")
		}
		switch r.IntN(3) {
		case 0:
			for range 3 + r.IntN(3) {
				b.WriteString("- ")
				sentence(&b, r, 3+r.IntN(6), true)
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		case 1:
			for k := range 2 + r.IntN(4) {
				b.WriteByte(byte('1' + k))
				b.WriteString(". ")
				sentence(&b, r, 4+r.IntN(8), true)
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
	}
	// The store trims the body; trimming here keeps a file's body exactly what is read back.
	return strings.TrimRight(b.String(), "\n")
}

// sentence writes n words, capitalised and ending with a full stop when full is set, with the
// occasional Markdown decoration.
func sentence(b *strings.Builder, r *rand.Rand, n int, full bool) {
	for k := range n {
		if k > 0 {
			b.WriteByte(' ')
		}
		w := pick(r, words)
		if k == 0 {
			w = titleCase(w)
		}
		if !full {
			b.WriteString(w)
			continue
		}
		switch r.IntN(40) {
		case 0:
			b.WriteString("**" + w + "**")
		case 1:
			b.WriteString("_" + w + "_")
		case 2:
			b.WriteString("`" + w + "`")
		case 3:
			b.WriteString("[" + w + "](https://example.com/" + w + ")")
		default:
			b.WriteString(w)
		}
	}
	if full {
		b.WriteByte('.')
	}
}
