package graphql_test

import (
	"fmt"
	"strings"
	"testing"

	"cms/handlers/graphql"
)

func TestDepthLimit(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.MaxDepth = 5
	h := newHandler(t, site, cfg)
	tests := []struct {
		name, query string
		tooDeep     bool
	}{
		{name: "exactly the maximum", query: `{ navigation(handle: "main") { items { children { children { label } } } } }`},
		{name: "one over", query: `{ navigation(handle: "main") { items { children { children { children { label } } } } } }`, tooDeep: true},
		{name: "exactly the maximum through a fragment", query: `{ navigation(handle: "main") { items { ...C } } } fragment C on NavigationItem { children { children { label } } }`},
		{name: "one over through nested fragments", query: `{ navigation(handle: "main") { items { ...C } } } fragment C on NavigationItem { children { ...D } } fragment D on NavigationItem { children { children { label } } }`, tooDeep: true},
		{name: "one over through an inline fragment", query: `{ navigation(handle: "main") { items { ... on NavigationItem { children { children { children { label } } } } } } }`, tooDeep: true},
		{name: "brackets far too deep are refused unparsed", query: strings.Repeat("{a", 5000) + strings.Repeat("}", 5000), tooDeep: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: adminTok, query: tc.query})
			if tc.tooDeep {
				oneError(t, r, graphql.CodeTooDeep, "maximum depth is 5")
				if r.Data != nil {
					t.Errorf("data = %v, want none: the query must not run", r.Data)
				}
				return
			}
			noErrors(t, r)
		})
	}
}

func TestComplexityLimit(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.MaxComplexity = 30
	h := newHandler(t, site, cfg)
	// A list query costs limit x (1 + its selection); other fields cost 1 each.
	tests := []struct {
		name, query string
		vars        any
		tooComplex  bool
	}{
		{name: "exactly the maximum", query: `{ blogs(limit: 10) { slug title } }`},
		{name: "one limit over", query: `{ blogs(limit: 11) { slug title } }`, tooComplex: true},
		{name: "the default limit counts", query: `{ blogs { slug } }`, tooComplex: true},
		{name: "limit from a variable", query: `query($n: Int) { blogs(limit: $n) { slug title } }`, vars: map[string]any{"n": 10}},
		{name: "limit from a variable over", query: `query($n: Int) { blogs(limit: $n) { slug title } }`, vars: map[string]any{"n": 11}, tooComplex: true},
		{name: "absent variable means the default limit", query: `query($n: Int) { blogs(limit: $n) { slug } }`, tooComplex: true},
		{name: "fragments count", query: `{ a: blogs(limit: 10) { ...E } b: blog(slug: "alpha") { slug } } fragment E on Blog { slug title }`, tooComplex: true},
		{name: "fragments within the maximum", query: `{ blogs(limit: 10) { ...E } } fragment E on Blog { slug title }`},
		{name: "huge limit", query: `{ blogs(limit: 99999999999) { slug } }`, tooComplex: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: adminTok, query: tc.query, variables: tc.vars})
			if tc.tooComplex {
				oneError(t, r, graphql.CodeTooComplex, "maximum is 30")
				return
			}
			noErrors(t, r)
		})
	}
}

func TestLimitsSurviveHostileFragments(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	t.Run("cycle", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: adminTok, query: `{ blogs(limit: 1) { ...A } } fragment A on Blog { slug ...B } fragment B on Blog { title ...A }`})
		if len(r.Errors) == 0 || r.Errors[0].Extensions.Code != graphql.CodeValidationFailed {
			t.Fatalf("codes = %v, want a validation error: %s", r.codes(), r.raw)
		}
	})
	t.Run("exponential spreads", func(t *testing.T) {
		t.Parallel()
		// F0 spreads F1 twice, F1 spreads F2 twice, ...: 2^40 fields once expanded.
		var b strings.Builder
		b.WriteString(`{ blogs(limit: 1) { ...F0 } }`)
		for i := range 40 {
			fmt.Fprintf(&b, " fragment F%d on Blog { slug ...F%d ...F%d }", i, i+1, i+1)
		}
		b.WriteString(" fragment F40 on Blog { slug }")
		oneError(t, post(t, h, gqlReq{token: adminTok, query: b.String()}), graphql.CodeTooComplex, "")
	})
}

func TestIntrospection(t *testing.T) {
	t.Parallel()
	on := newHandler(t, site, testConfig())
	offCfg := testConfig()
	offCfg.Introspection = false
	off := newHandler(t, site, offCfg)

	tests := []struct {
		name, query string
		introspects bool
	}{
		{name: "schema", query: `{ __schema { queryType { name } } }`, introspects: true},
		{name: "type", query: `{ __type(name: "Blog") { name } }`, introspects: true},
		{name: "hidden in a fragment", query: `{ ...I } fragment I on Query { __schema { types { name } } }`, introspects: true},
		{name: "typename", query: `{ __typename }`},
		{name: "typename of entries", query: `{ blogs(limit: 1) { __typename } }`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			noErrors(t, post(t, on, gqlReq{token: adminTok, query: tc.query}))
			r := post(t, off, gqlReq{token: adminTok, query: tc.query})
			anon := post(t, on, gqlReq{query: tc.query})
			anonGET := get(t, on, "", tc.query)
			if !tc.introspects {
				noErrors(t, r)
				if tc.name == "typename" {
					noErrors(t, anon)
					noErrors(t, anonGET)
				}
				return
			}
			oneError(t, r, graphql.CodeIntrospectionDisabled, "GraphQL introspection is disabled")
			// Any session will do: introspection shows the schema, not content.
			noErrors(t, post(t, on, gqlReq{token: noneTok, query: tc.query}))
			// Switched on (development), it still needs a session: the schema names every
			// collection and field, which is more than an anonymous caller may learn.
			for _, a := range []response{anon, anonGET} {
				oneError(t, a, graphql.CodeUnauthenticated, "GraphQL introspection needs a session")
				if a.Data != nil {
					t.Errorf("anonymous introspection answered data: %s", a.raw)
				}
			}
			oneError(t, post(t, off, gqlReq{query: tc.query}), graphql.CodeIntrospectionDisabled, "")
		})
	}
	t.Run("the standard introspection query fits the default limits", func(t *testing.T) {
		t.Parallel()
		noErrors(t, post(t, on, gqlReq{token: adminTok, query: introspectionQuery}))
	})
}

// introspectionQuery is the query GraphQL tools send to learn a schema.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

func TestShapeLimits(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	repeat := func(n int, format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	tests := []struct {
		name, query, code, msg string
	}{
		{name: "too many definitions", query: repeat(101, " query Q%d { __typename }"), code: graphql.CodeTooComplex, msg: "at most 100"},
		{name: "too many variables", query: "query(" + repeat(101, " $v%d: Int") + ") { __typename }", code: graphql.CodeTooComplex, msg: "variables"},
		{name: "too many directives", query: "{ __typename" + strings.Repeat(" @skip(if: false)", 11) + " }", code: graphql.CodeTooComplex, msg: "directives"},
		{name: "too many arguments", query: "{ blogs(" + repeat(21, " a%d: 1") + ") { slug } }", code: graphql.CodeTooComplex, msg: "arguments"},
		{name: "too many input fields", query: "{ blogs(filter: {" + repeat(201, " a%d: 1") + "}) { slug } }", code: graphql.CodeTooComplex, msg: "input object"},
		{name: "too long a list", query: `{ blogs(filter: {title: [` + strings.Repeat(`"x", `, 101) + `]}) { slug } }`, code: graphql.CodeTooComplex, msg: "list"},
		{name: "alias clash between fields", query: `{ a: blogs(limit: 1) { slug } a: pagesList(limit: 1) { slug } }`, code: graphql.CodeValidationFailed, msg: `"a" conflict`},
		{name: "alias clash between arguments", query: `{ a: blogs(limit: 1) { slug } a: blogs(limit: 2) { slug } }`, code: graphql.CodeValidationFailed, msg: `"a" conflict`},
		{name: "alias clash through a fragment", query: `{ blogs(limit: 1) { slug ...F } } fragment F on Blog { slug: title }`, code: graphql.CodeValidationFailed, msg: `"slug" conflict`},
		{name: "duplicate fragment names", query: `{ ...A } fragment A on Query { __typename } fragment A on Query { ...A }`, code: graphql.CodeValidationFailed, msg: "only one fragment"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			oneError(t, post(t, h, gqlReq{token: adminTok, query: tc.query}), tc.code, tc.msg)
		})
	}
	t.Run("the same field twice is fine", func(t *testing.T) {
		t.Parallel()
		noErrors(t, post(t, h, gqlReq{token: adminTok, query: `{ blogs(limit: 1) { slug ...F slug } } fragment F on Blog { slug title }`}))
	})
}
