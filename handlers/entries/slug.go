package entries

import (
	"strings"
	"unicode"
)

// MaxSlugLen bounds a slug derived from a title.
const MaxSlugLen = 100

// Slugify derives a slug from a title: lower-case ASCII letters and digits, with common Latin
// accents folded (é → e, ß → ss, æ → ae), apostrophes dropped, "&" read as "and", and every other
// run of characters turned into one "-", trimmed at both ends and cut to MaxSlugLen. The result
// is "" when the title has no letter or digit it can use; otherwise it is a valid handle.
func Slugify(title string) string {
	var b strings.Builder
	b.Grow(min(len(title), MaxSlugLen+8))
	dash := false // a separator is due before the next piece
	for _, r := range title {
		if b.Len() >= MaxSlugLen {
			break
		}
		var piece string
		word := false // the piece is a word of its own, separated on both sides
		switch r = unicode.ToLower(r); {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			piece = string(r)
		case r == '\'' || r == '’':
			continue // "don't" reads better as "dont" than "don-t"
		case r == '&':
			piece, word = "and", true
		default:
			piece = foldRune(r)
		}
		if piece == "" {
			dash = b.Len() > 0
			continue
		}
		if (dash || word) && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = word
		b.WriteString(piece)
	}
	s := b.String()
	if len(s) > MaxSlugLen {
		s = s[:MaxSlugLen]
	}
	return strings.TrimRight(s, "-")
}

// foldRune spells a lower-case Latin letter with a diacritic (or a ligature) in ASCII, or
// returns "" for anything else. It covers Latin-1 and Latin Extended-A, which is where the
// simple cases are; other scripts need transliteration, which is out of scope.
func foldRune(r rune) string {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą', 'ǎ':
		return "a"
	case 'ç', 'ć', 'ĉ', 'ċ', 'č':
		return "c"
	case 'ď', 'đ', 'ð':
		return "d"
	case 'è', 'é', 'ê', 'ë', 'ē', 'ĕ', 'ė', 'ę', 'ě':
		return "e"
	case 'ĝ', 'ğ', 'ġ', 'ģ':
		return "g"
	case 'ĥ', 'ħ':
		return "h"
	case 'ì', 'í', 'î', 'ï', 'ĩ', 'ī', 'ĭ', 'į', 'ı':
		return "i"
	case 'ĵ':
		return "j"
	case 'ķ':
		return "k"
	case 'ĺ', 'ļ', 'ľ', 'ŀ', 'ł':
		return "l"
	case 'ñ', 'ń', 'ņ', 'ň', 'ŉ':
		return "n"
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ō', 'ŏ', 'ő':
		return "o"
	case 'ŕ', 'ŗ', 'ř':
		return "r"
	case 'ś', 'ŝ', 'ş', 'š', 'ſ':
		return "s"
	case 'ţ', 'ť', 'ŧ':
		return "t"
	case 'ù', 'ú', 'û', 'ü', 'ũ', 'ū', 'ŭ', 'ů', 'ű', 'ų':
		return "u"
	case 'ŵ':
		return "w"
	case 'ý', 'ÿ', 'ŷ':
		return "y"
	case 'ź', 'ż', 'ž':
		return "z"
	case 'æ':
		return "ae"
	case 'œ':
		return "oe"
	case 'ß':
		return "ss"
	case 'þ':
		return "th"
	case 'ĳ':
		return "ij"
	}
	return ""
}
