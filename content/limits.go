package content

import "fmt"

// Limits shared by every document the store writes as YAML (globals, settings, terms,
// navigation trees, asset metadata, users, roles, entry front matter) and by the reader of those
// files. The JSON side refuses a body nested deeper than MaxNesting before decoding it; the
// writer refuses a value nested deeper before building any YAML, and YAML longer than
// MaxDocumentBytes as soon as the encoder passes it; the reader refuses the same. So the
// service never writes a file it would refuse to read back, and a small body that indents into
// a huge file is refused instead of filling the disk.
const (
	// MaxNesting bounds how deeply maps and lists nest, counted as [JSONNesting] counts: a
	// top-level object is 1, an object inside it 2. A navigation tree at its own limit of 32
	// levels of children nests 67 deep (an item and its children list per level), with room
	// left for the items' extra values.
	MaxNesting = 100
	// MaxDocumentBytes bounds the serialised YAML of one document (of an entry, its front matter).
	MaxDocumentBytes = 4 << 20
)

// Error codes of a document over one of the limits.
const (
	CodeNestingTooDeep   = "NESTING_TOO_DEEP"
	CodeDocumentTooLarge = "DOCUMENT_TOO_LARGE"
)

// LimitDetails names the limit a refused document went over.
type LimitDetails struct {
	Limit int `json:"limit"`
}

// NestingTooDeep is the Invalid error for a value nested deeper than MaxNesting.
func NestingTooDeep(op string) *Error {
	return &Error{Kind: Invalid, Op: op, Code: CodeNestingTooDeep,
		Message: fmt.Sprintf("Objects and lists are nested more than %d levels deep", MaxNesting),
		Details: LimitDetails{Limit: MaxNesting}}
}

// DocumentTooLarge is the TooLarge error for a document whose YAML would pass MaxDocumentBytes.
func DocumentTooLarge(op string) *Error {
	return &Error{Kind: TooLarge, Op: op, Code: CodeDocumentTooLarge,
		Message: fmt.Sprintf("The document would be larger than %d MiB when stored", MaxDocumentBytes>>20),
		Details: LimitDetails{Limit: MaxDocumentBytes}}
}

// CheckJSONNesting returns NestingTooDeep when JSON text nests deeper than MaxNesting.
func CheckJSONNesting(op string, b []byte) error {
	if JSONNesting(b) > MaxNesting {
		return NestingTooDeep(op)
	}
	return nil
}

// JSONNesting returns how deeply objects and arrays nest in JSON text: 0 for a scalar, 1 for
// {"a":1}, 2 for {"a":[1]}. It reads the text once without decoding it, so that a hostile body
// is refused before a decoder recurses into it. It is exact for valid JSON; for other text the
// result is only an estimate, and the decoder refuses such text anyway.
func JSONNesting(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// Nesting returns how deeply maps and lists nest in a Map value, counted as [JSONNesting] counts
// (0 for a scalar). It stops descending past MaxNesting, so it returns at most MaxNesting+1 and
// never recurses deeply, whatever it is given.
func Nesting(v any) int { return nesting(v, MaxNesting+1) }

// nesting returns min(the nesting of v, budget).
func nesting(v any, budget int) int {
	if budget == 0 {
		return 0
	}
	var elems []any
	switch x := v.(type) {
	case nil, bool, int64, float64, string:
		return 0
	case *Map:
		if x != nil {
			elems = x.vals
		}
	case []any:
		elems = x
	default:
		// Values of other libraries are written as Normalize turns them.
		switch n := Normalize(v).(type) {
		case *Map, []any:
			return nesting(n, budget)
		}
		return 0
	}
	deepest := 0
	for _, e := range elems {
		if deepest = max(deepest, nesting(e, budget-1)); deepest == budget-1 {
			break
		}
	}
	return deepest + 1
}
