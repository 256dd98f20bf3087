package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/gqlerrors"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/location"
	"github.com/graphql-go/graphql/language/parser"
	"github.com/graphql-go/graphql/language/source"

	"cms/content"
	"cms/content/access"
	"cms/content/query"
	"cms/handlers/web"
)

// request is a GraphQL request, from a JSON body or from URL parameters.
type request struct {
	Query         string          `json:"query"`
	Variables     json.RawMessage `json:"variables"`
	OperationName string          `json:"operationName"`
}

// POST /api/graphql (graphql.path): an operation as JSON.
func (a *api) post(w http.ResponseWriter, r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.Contains(strings.ToLower(ct), "json") {
		return &web.Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
			Message: "GraphQL requests must be JSON (Content-Type: application/json) or a GET with a query parameter"}
	}
	body, err := web.ReadBody(w, r, a.Config.MaxBodyBytes)
	if err != nil {
		return err
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return web.BadRequest("Request body must be a JSON object with query, variables and operationName")
	}
	return a.serve(w, r, req, false)
}

// GET /api/graphql?query= (graphql.path): a query in the URL; queries only.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	for _, name := range []string{"query", "variables", "operationName"} {
		if len(v[name]) > 1 {
			return web.BadRequest("%s may be given only once", name)
		}
	}
	req := request{Query: v.Get("query"), OperationName: v.Get("operationName")}
	if s := v.Get("variables"); s != "" {
		req.Variables = json.RawMessage(s)
	}
	if int64(len(req.Query)+len(req.Variables)) > a.Config.MaxBodyBytes {
		return web.TooLarge(a.Config.MaxBodyBytes)
	}
	return a.serve(w, r, req, true)
}

// serve runs one request: authenticate, find the operation, check the limits, validate (cached),
// then execute within the timeout or answer from the response cache.
func (a *api) serve(w http.ResponseWriter, r *http.Request, req request, viaGET bool) error {
	if strings.TrimSpace(req.Query) == "" {
		if viaGET {
			return web.BadRequest("The query parameter is required")
		}
		return web.BadRequest("The request has no query")
	}
	vars, err := decodeVariables(req.Variables)
	if err != nil {
		return web.BadRequest("%v", err)
	}
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		if content.KindOf(err) != content.Unauthenticated {
			return err
		}
		p = nil // anonymous: fields answer UNAUTHENTICATED, { __typename } still works
	}
	bs, err := a.schema()
	if err != nil {
		return err
	}
	cfg := &a.Config

	// A response is cached only after its query passed every check below and answered without
	// errors, and its key holds everything those checks and the answer depend on: a hit can
	// skip them.
	var key string
	if a.results.Enabled() {
		key = resultKey(bs.gen, a.Store.Generation(), p, req.OperationName, req.Query, vars)
		if body, ok := a.results.Get(key); ok {
			a.write(w, body)
			return nil
		}
	}

	entry := a.docs.get(bs.gen, req.Query)
	cached := entry != nil
	if !cached {
		if d := bracketDepth(req.Query); d > cfg.MaxDepth+nestingGuard {
			return a.writeErrors(w, r, newError(CodeTooDeep, "The query nests %d levels deep; the maximum depth is %d", d, cfg.MaxDepth))
		}
		doc, err := parser.Parse(parser.ParseParams{Source: source.NewSource(&source.Source{Body: []byte(req.Query), Name: "GraphQL request"})})
		if err != nil {
			fe := gqlerrors.FormatError(err)
			return a.writeFormatted(w, r, []outError{{Message: fe.Message, Locations: fe.Locations, Extensions: code(CodeParseFailed)}})
		}
		if gerr := checkShape(doc); gerr != nil {
			return a.writeErrors(w, r, gerr)
		}
		entry = &docEntry{gen: bs.gen, doc: doc}
	}
	op, gerr := operation(entry.doc, req.OperationName)
	if gerr != nil {
		return a.writeErrors(w, r, gerr)
	}
	if viaGET && op.Operation != ast.OperationTypeQuery {
		return &web.Error{Status: http.StatusMethodNotAllowed, Code: "METHOD_NOT_ALLOWED",
			Message: "Only queries may be sent with GET; send a " + op.Operation + " with POST",
			Header:  http.Header{"Allow": {http.MethodPost}}}
	}
	if op.Operation != ast.OperationTypeQuery {
		return a.writeErrors(w, r, newError(CodeValidationFailed, "This API has no %s type: it answers queries only", op.Operation))
	}
	if err := checkVariables(&bs.schema, op, vars); err != nil {
		return a.writeErrors(w, r, newError(CodeBadRequest, "%v", err))
	}
	an := analyze(bs, entry.doc, op, vars)
	switch {
	case an.invalid != "":
		return a.writeFormatted(w, r, []outError{{Message: an.invalid, Extensions: code(CodeValidationFailed)}})
	case an.introspection && !cfg.Introspection:
		return a.writeErrors(w, r, newError(CodeIntrospectionDisabled, "GraphQL introspection is disabled"))
	case an.introspection && p == nil:
		return a.writeErrors(w, r, newError(CodeUnauthenticated, "GraphQL introspection needs a session: sign in or send a Bearer token"))
	case an.depth > cfg.MaxDepth:
		return a.writeErrors(w, r, newError(CodeTooDeep, "The query is %d levels deep; the maximum depth is %d", an.depth, cfg.MaxDepth))
	case an.cost > cfg.MaxComplexity:
		return a.writeErrors(w, r, newError(CodeTooComplex, "The query's complexity is %d; the maximum is %d (every field costs 1, and a list query multiplies its selection by its limit, %d when omitted)", an.cost, cfg.MaxComplexity, query.DefaultLimit))
	}
	if !cached {
		if gerr := checkMerge(entry.doc); gerr != nil {
			return a.writeErrors(w, r, gerr)
		}
		res := gql.ValidateDocument(&bs.schema, entry.doc, validationRules)
		if !res.IsValid {
			out := make([]outError, len(res.Errors))
			for i, fe := range res.Errors {
				out[i] = outError{Message: fe.Message, Locations: fe.Locations, Extensions: code(CodeValidationFailed)}
			}
			return a.writeFormatted(w, r, out)
		}
		a.docs.put(req.Query, entry)
	}

	ctx, cancel := context.WithTimeout(r.Context(), cfg.Timeout)
	defer cancel()
	st := &reqState{ctx: ctx, p: p}
	// graphql-go returns as soon as its context is done but leaves the execution running. It gets
	// a context that is never cancelled instead; resolvers watch the real deadline through st and
	// stop, so the execution ends before the request does.
	exCtx := context.WithValue(context.WithoutCancel(ctx), stateKey{}, st)
	res := gql.Execute(gql.ExecuteParams{Schema: bs.schema, AST: entry.doc, OperationName: req.OperationName, Args: vars, Context: exCtx})
	if r.Context().Err() != nil {
		return r.Context().Err() // the client went away: nothing is written
	}
	if ctx.Err() != nil {
		return a.writeResult(w, r, nil, []outError{{Message: "The query took longer than " + cfg.Timeout.String() + " and was stopped", Extensions: code(CodeTimeout)}})
	}
	errs := a.mapErrors(r, res.Errors)
	body, err := encodeResult(res.Data, errs)
	if err != nil {
		return err
	}
	if key != "" && an.entryOnly && len(errs) == 0 {
		a.results.Put(key, body, int64(len(key)+len(body)))
	}
	noteCode(r, errs)
	a.write(w, body)
	return nil
}

// validationRules are graphql-go's rules without OverlappingFieldsCanBeMerged, whose pairwise
// comparisons take seconds on a small hostile query (1,600 copies of one field) and which recurses
// without end on fragment cycles. checkMerge checks the same thing in linear time: fields that
// share a response name must be the same field with the same arguments.
var validationRules = []gql.ValidationRuleFn{
	gql.ArgumentsOfCorrectTypeRule,
	gql.DefaultValuesOfCorrectTypeRule,
	gql.FieldsOnCorrectTypeRule,
	gql.FragmentsOnCompositeTypesRule,
	gql.KnownArgumentNamesRule,
	gql.KnownDirectivesRule,
	gql.KnownFragmentNamesRule,
	gql.KnownTypeNamesRule,
	gql.LoneAnonymousOperationRule,
	gql.NoFragmentCyclesRule,
	gql.NoUndefinedVariablesRule,
	gql.NoUnusedFragmentsRule,
	gql.NoUnusedVariablesRule,
	gql.PossibleFragmentSpreadsRule,
	gql.ProvidedNonNullArgumentsRule,
	gql.ScalarLeafsRule,
	gql.UniqueArgumentNamesRule,
	gql.UniqueFragmentNamesRule,
	gql.UniqueInputFieldNamesRule,
	gql.UniqueOperationNamesRule,
	gql.UniqueVariableNamesRule,
	gql.VariablesAreInputTypesRule,
	gql.VariablesInAllowedPositionRule,
}

// operation picks the operation to run, as graphql-go would, so that its type and limits are
// known before execution.
func operation(doc *ast.Document, name string) (*ast.OperationDefinition, *gqlError) {
	var found *ast.OperationDefinition
	n := 0
	for _, d := range doc.Definitions {
		op, ok := d.(*ast.OperationDefinition)
		if !ok {
			continue
		}
		n++
		if name == "" || nameOf(op.Name) == name {
			if found == nil {
				found = op
			}
		}
	}
	switch {
	case n == 0:
		return nil, newError(CodeBadRequest, "The document holds no operation")
	case name == "" && n > 1:
		return nil, newError(CodeBadRequest, "The document holds several operations: name the one to run in operationName")
	case found == nil:
		return nil, newError(CodeBadRequest, "The document has no operation named %q", name)
	}
	return found, nil
}

// outError is one error of a GraphQL response.
type outError struct {
	Message    string                    `json:"message"`
	Locations  []location.SourceLocation `json:"locations,omitempty"`
	Path       []any                     `json:"path,omitempty"`
	Extensions map[string]any            `json:"extensions"`
}

func code(c string) map[string]any { return map[string]any{"code": c} }

// mapErrors turns execution errors into client-safe ones with extensions.code. Causes of
// internal errors are logged here, once, and never sent.
func (a *api) mapErrors(r *http.Request, errs []gqlerrors.FormattedError) []outError {
	if len(errs) == 0 {
		return nil
	}
	out := make([]outError, 0, len(errs))
	for _, fe := range errs {
		cause := fe.OriginalError()
		if le, ok := cause.(*gqlerrors.Error); ok {
			cause = le.OriginalError
		}
		if cause == nil || len(fe.Path) == 0 && !isGQL(cause) {
			// Raised while preparing the execution (operation or variables): a client error.
			out = append(out, outError{Message: fe.Message, Locations: fe.Locations, Extensions: code(CodeBadRequest)})
			continue
		}
		ge := asGQL(cause)
		if ge.code == CodeInternal {
			a.Log.Error("GraphQL field failed", "path", pathString(fe.Path), "err", cause, "request_id", web.RequestID(r))
		}
		out = append(out, outError{Message: ge.msg, Locations: fe.Locations, Path: fe.Path, Extensions: code(ge.code)})
	}
	return out
}

func isGQL(err error) bool {
	_, ok := errors.AsType[*gqlError](err)
	return ok
}

func pathString(p []any) string {
	var b strings.Builder
	for i, s := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		switch x := s.(type) {
		case string:
			b.WriteString(x)
		case int:
			b.WriteString(strconv.Itoa(x))
		}
	}
	return b.String()
}

// writeErrors answers a request that failed before execution: errors only, no data.
func (a *api) writeErrors(w http.ResponseWriter, r *http.Request, errs ...*gqlError) error {
	out := make([]outError, len(errs))
	for i, e := range errs {
		out[i] = outError{Message: e.msg, Extensions: code(e.code)}
	}
	return a.writeFormatted(w, r, out)
}

func (a *api) writeFormatted(w http.ResponseWriter, r *http.Request, errs []outError) error {
	b, err := json.Marshal(struct {
		Errors []outError `json:"errors"`
	}{errs})
	if err != nil {
		return err
	}
	noteCode(r, errs)
	a.write(w, b)
	return nil
}

// writeResult answers an executed request: data (possibly null) and errors.
func (a *api) writeResult(w http.ResponseWriter, r *http.Request, data any, errs []outError) error {
	b, err := encodeResult(data, errs)
	if err != nil {
		return err
	}
	noteCode(r, errs)
	a.write(w, b)
	return nil
}

func encodeResult(data any, errs []outError) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(512)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Data   any        `json:"data"`
		Errors []outError `json:"errors,omitempty"`
	}{data, errs}); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (a *api) write(w http.ResponseWriter, body []byte) {
	h := w.Header()
	// Answers depend on the caller's session: never stored by shared caches.
	h.Set("Cache-Control", "private, no-store")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	web.WriteJSONBytes(w, http.StatusOK, body)
}

// noteCode puts the first error code on the access log line.
func noteCode(r *http.Request, errs []outError) {
	if info := web.InfoFrom(r.Context()); info != nil && len(errs) > 0 {
		info.Code, _ = errs[0].Extensions["code"].(string)
	}
}

// resultKey is the response cache key: everything an entry query's answer depends on. The
// caller enters only through their permissions, so users with the same roles share entries.
func resultKey(schemaGen, contentGen uint64, p *access.Principal, opName, query string, vars map[string]any) string {
	var b strings.Builder
	b.Grow(len(query) + 128)
	b.WriteString(strconv.FormatUint(schemaGen, 36))
	b.WriteByte('/')
	b.WriteString(strconv.FormatUint(contentGen, 36))
	b.WriteByte(0)
	writePermissions(&b, p)
	b.WriteByte(0)
	b.WriteString(opName)
	b.WriteByte(0)
	b.WriteString(query)
	b.WriteByte(0)
	if len(vars) > 0 {
		v, _ := json.Marshal(vars) // map keys are sorted: a canonical form
		b.Write(v)
	}
	return b.String()
}

// writePermissions writes a canonical form of the grants of p ("-" when anonymous).
func writePermissions(b *strings.Builder, p *access.Principal) {
	if p == nil {
		b.WriteByte('-')
		return
	}
	var grants []string
	for _, r := range p.Roles {
		for _, perm := range r.Permissions {
			acts := append([]string(nil), perm.Actions...)
			sort.Strings(acts)
			grants = append(grants, perm.Resource+"\x01"+perm.Scope+"\x01"+strings.Join(acts, ","))
		}
	}
	sort.Strings(grants)
	b.WriteString("+")
	b.WriteString(strings.Join(grants, "\x02"))
}
