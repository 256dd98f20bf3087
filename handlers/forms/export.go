package forms

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"cms/content"
)

// GET /api/forms/{handle}/export/csv: every submission as CSV. The header needs every field
// handle, so the submissions are read twice: once for their keys, once to write the rows.
// Neither pass keeps more than one submission.
func (a *api) exportCSV(w http.ResponseWriter, r *http.Request) error {
	_, def, err := a.authorize(r, "view")
	if err != nil {
		return err
	}
	keys := map[string]bool{}
	for sub, err := range a.Submissions.EachSubmission(def.Handle) {
		if err != nil {
			return err
		}
		for _, k := range sub.Data.Keys() {
			keys[k] = true
		}
	}
	handles := make([]string, 0, len(keys))
	for k := range keys {
		handles = append(handles, k)
	}
	slices.Sort(handles)

	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+def.Handle+`-submissions.csv"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	cw := NewCSVWriter(w)
	if err := cw.WriteHeader(handles); err != nil {
		return a.abort(r, def.Handle, err)
	}
	for sub, err := range a.Submissions.EachSubmission(def.Handle) {
		if err == nil {
			err = cw.WriteSubmission(sub)
		}
		if err != nil {
			return a.abort(r, def.Handle, err)
		}
	}
	if err := cw.Flush(); err != nil {
		return a.abort(r, def.Handle, err)
	}
	return nil
}

// GET /api/forms/{handle}/export/json: a pretty-printed array of {id, form, submittedAt, data},
// written one submission at a time.
func (a *api) exportJSON(w http.ResponseWriter, r *http.Request) error {
	_, def, err := a.authorize(r, "view")
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+def.Handle+`-submissions.json"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	bw := bufio.NewWriterSize(w, 32<<10)
	sep := "[\n  "
	for sub, err := range a.Submissions.EachSubmission(def.Handle) {
		if err != nil {
			return a.abort(r, def.Handle, err)
		}
		b, err := json.MarshalIndent(sub, "  ", "  ")
		if err != nil {
			return a.abort(r, def.Handle, err)
		}
		bw.WriteString(sep)
		bw.Write(b)
		sep = ",\n  "
	}
	if sep == "[\n  " {
		bw.WriteString("[]\n")
	} else {
		bw.WriteString("\n]\n")
	}
	if err := bw.Flush(); err != nil {
		return a.abort(r, def.Handle, err)
	}
	return nil
}

// abort ends an export that failed after its status was sent. Writing an error envelope into
// a half-written file would pass for data, so the connection is cut instead (the client sees a
// truncated transfer); serve.Stack lets http.ErrAbortHandler through to net/http, which does
// this quietly. The cause is logged here because no error response carries it.
func (a *api) abort(r *http.Request, form string, err error) error {
	if r.Context().Err() != nil {
		return r.Context().Err() // the client went away: nothing to tell anyone
	}
	a.Log.Error("form export failed after it started", "form", form, "err", err)
	panic(http.ErrAbortHandler)
}

// CSVWriter writes form submissions as CSV (RFC 4180): records end with CRLF; a field that
// holds a comma, a double quote, CR or LF is put in double quotes, with its quotes doubled; and
// cells are neutralised against formula injection. Field text is kept exactly (encoding/csv
// would turn a newline inside a field into CRLF).
type CSVWriter struct {
	w       *bufio.Writer
	handles []string
}

// NewCSVWriter returns a CSVWriter writing to w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: bufio.NewWriterSize(w, 32<<10)} }

// WriteHeader writes the header row: id, submitted_at, then the given field handles in order.
func (c *CSVWriter) WriteHeader(handles []string) error {
	c.handles = handles
	c.field("id", true)
	c.field("submitted_at", false)
	for _, h := range handles {
		c.field(Neutralise(h), false)
	}
	return c.end()
}

// WriteSubmission writes one submission's row; a field it lacks is an empty cell.
func (c *CSVWriter) WriteSubmission(sub *content.Submission) error {
	c.field(Neutralise(sub.ID), true)
	c.field(Neutralise(sub.SubmittedAt), false)
	for _, h := range c.handles {
		c.field(CSVCell(sub.Data.Value(h)), false)
	}
	return c.end()
}

// field writes one field, preceded by a comma unless it is the first of its record.
func (c *CSVWriter) field(s string, first bool) {
	if !first {
		c.w.WriteByte(',')
	}
	if !strings.ContainsAny(s, ",\"\r\n") {
		c.w.WriteString(s)
		return
	}
	c.w.WriteByte('"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		c.w.WriteString(s[:i+1])
		c.w.WriteByte('"')
		s = s[i+1:]
	}
	c.w.WriteString(s)
	c.w.WriteByte('"')
}

func (c *CSVWriter) end() error {
	_, err := c.w.WriteString("\r\n")
	return err
}

// Flush writes out buffered rows and reports any write error.
func (c *CSVWriter) Flush() error { return c.w.Flush() }

// CSVCell writes a submitted value as the text of a cell: numbers and booleans as written,
// lists joined with ", ", objects as JSON, text neutralised.
func CSVCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return Neutralise(cellText(v))
}

// cellText is a value's text before neutralising.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = cellText(e)
		}
		return strings.Join(parts, ", ")
	case *content.Map:
		b, err := json.Marshal(x)
		if err != nil {
			return ""
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// Neutralise prefixes text a spreadsheet would run as a formula with an apostrophe: text that,
// after leading spaces, starts with =, +, -, @, a tab or a carriage return (OWASP's list).
func Neutralise(s string) string {
	t := strings.TrimLeft(s, " ")
	if t != "" && strings.IndexByte("=+-@\t\r", t[0]) >= 0 {
		return "'" + s
	}
	return s
}
