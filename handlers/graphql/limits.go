package graphql

import (
	"fmt"
	"math"
	"strconv"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"cms/content/query"
)

// maxCost saturates complexity sums so that no query can overflow them.
const maxCost = math.MaxInt32

// nestingGuard is how much deeper than MaxDepth the brackets of a query may nest before it is
// refused unparsed: arguments and input values add a few levels to the selection depth, and
// anything far beyond that would only make the parser recurse.
const nestingGuard = 32

// bracketDepth returns the deepest nesting of {, [ and ( in a query, ignoring strings and
// comments. It is a cheap guard run before parsing.
func bracketDepth(q string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(q); i++ {
		switch c := q[i]; c {
		case '#':
			for i < len(q) && q[i] != '\n' && q[i] != '\r' {
				i++
			}
		case '"':
			if i+2 < len(q) && q[i+1] == '"' && q[i+2] == '"' {
				i += 3
				for i < len(q) && !(q[i] == '"' && i+2 < len(q) && q[i+1] == '"' && q[i+2] == '"') {
					if q[i] == '\\' {
						i++
					}
					i++
				}
				i += 2
				continue
			}
			i++
			for i < len(q) && q[i] != '"' && q[i] != '\n' {
				if q[i] == '\\' {
					i++
				}
				i++
			}
		case '{', '[', '(':
			depth++
			deepest = max(deepest, depth)
		case '}', ']', ')':
			if depth > 0 {
				depth--
			}
		}
	}
	return deepest
}

// analysis is what the limit checks learn about one operation.
type analysis struct {
	depth         int
	cost          int
	introspection bool // selects __schema or __type
	entryOnly     bool // every root field is an entry query or __typename (the response is cacheable)
	// invalid names a structural fault that graphql-go's validator does not survive (it
	// recurses without end on fragment cycles), reported instead of validating.
	invalid string
}

// analyzer walks an operation with its fragments. Fragments are measured once each (memoised),
// so a document that spreads fragments many times over costs time linear in its size, and a
// fragment that spreads itself is detected instead of followed.
type analyzer struct {
	schema *builtSchema
	frags  map[string]*ast.FragmentDefinition
	vars   map[string]any
	memo   map[string]measure
	active map[string]bool
	a      *analysis
}

type measure struct{ depth, cost int }

// analyze measures op, and every other operation and fragment of the document too: graphql-go
// validates the whole document, so a hostile fragment that op never spreads must be bounded as
// well. The depth and cost reported are the largest found. vars supply limit arguments given as
// variables.
func analyze(bs *builtSchema, doc *ast.Document, op *ast.OperationDefinition, vars map[string]any) analysis {
	var res analysis
	z := &analyzer{schema: bs, frags: map[string]*ast.FragmentDefinition{}, vars: vars, memo: map[string]measure{}, active: map[string]bool{}, a: &res}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok {
			name := nameOf(f.Name)
			if _, dup := z.frags[name]; dup {
				res.invalid = fmt.Sprintf("There can be only one fragment named %q.", name)
				return res
			}
			z.frags[name] = f
		}
	}
	res.entryOnly = op.Operation == ast.OperationTypeQuery
	z.checkRoots(op.SelectionSet, map[string]bool{})
	m := z.selection(op.SelectionSet, z.rootType(op))
	res.depth, res.cost = m.depth, m.cost
	for _, d := range doc.Definitions {
		switch def := d.(type) {
		case *ast.OperationDefinition:
			if def != op {
				m = z.selection(def.SelectionSet, z.rootType(def))
			}
		case *ast.FragmentDefinition:
			m = z.fragment(nameOf(def.Name))
		}
		res.depth, res.cost = max(res.depth, m.depth), max(res.cost, m.cost)
	}
	return res
}

func (z *analyzer) rootType(op *ast.OperationDefinition) *gql.Object {
	if op.Operation == ast.OperationTypeQuery {
		return z.schema.schema.QueryType()
	}
	return nil
}

// checkRoots decides whether every root field is an entry query (fragments on the root type
// included).
func (z *analyzer) checkRoots(ss *ast.SelectionSet, seen map[string]bool) {
	if ss == nil {
		return
	}
	for _, sel := range ss.Selections {
		switch s := sel.(type) {
		case *ast.Field:
			name := nameOf(s.Name)
			if name != "__typename" && z.schema.roots[name] == nil {
				z.a.entryOnly = false
			}
		case *ast.InlineFragment:
			z.checkRoots(s.SelectionSet, seen)
		case *ast.FragmentSpread:
			n := nameOf(s.Name)
			if f := z.frags[n]; f != nil && !seen[n] {
				seen[n] = true
				z.checkRoots(f.SelectionSet, seen)
			}
		}
	}
}

func nameOf(n *ast.Name) string {
	if n == nil {
		return ""
	}
	return n.Value
}

// selection measures a selection set whose parent type is parent (nil when unknown).
func (z *analyzer) selection(ss *ast.SelectionSet, parent *gql.Object) measure {
	var m measure
	if ss == nil {
		return m
	}
	for _, sel := range ss.Selections {
		var sub measure
		switch s := sel.(type) {
		case *ast.Field:
			sub = z.field(s, parent)
		case *ast.InlineFragment:
			t := parent
			if s.TypeCondition != nil {
				t = z.object(nameOf(s.TypeCondition.Name))
			}
			sub = z.selection(s.SelectionSet, t)
		case *ast.FragmentSpread:
			sub = z.fragment(nameOf(s.Name))
		}
		m.depth = max(m.depth, sub.depth)
		m.cost = addCost(m.cost, sub.cost)
	}
	return m
}

func (z *analyzer) fragment(name string) measure {
	if m, ok := z.memo[name]; ok {
		return m
	}
	f := z.frags[name]
	if f == nil {
		return measure{} // unknown fragment: validation reports it
	}
	if z.active[name] {
		if z.a.invalid == "" {
			z.a.invalid = fmt.Sprintf("Cannot spread fragment %q within itself.", name)
		}
		return measure{}
	}
	z.active[name] = true
	var t *gql.Object
	if f.TypeCondition != nil {
		t = z.object(nameOf(f.TypeCondition.Name))
	}
	m := z.selection(f.SelectionSet, t)
	delete(z.active, name)
	z.memo[name] = m
	return m
}

func (z *analyzer) object(name string) *gql.Object {
	o, _ := z.schema.schema.Type(name).(*gql.Object)
	return o
}

// field measures one field: depth 1 plus its selection (introspection's ofType adds none); cost 1
// plus its selection, times the field's limit when it takes one.
func (z *analyzer) field(f *ast.Field, parent *gql.Object) measure {
	name := nameOf(f.Name)
	if name == "__schema" || name == "__type" {
		z.a.introspection = true
	}
	var child *gql.Object
	mult := 1
	if def := z.fieldDef(parent, name); def != nil {
		child, _ = gql.GetNamed(def.Type).(*gql.Object)
		for _, arg := range def.Args {
			if arg.Name() == "limit" {
				mult = z.limitOf(f)
			}
		}
	}
	sub := z.selection(f.SelectionSet, child)
	depth := sub.depth + 1
	if name == "ofType" && parent != nil && parent.Name() == "__Type" {
		// ofType unwraps a list or non-null type: it returns one type, never a list, so a chain
		// of them grows linearly. Not counting it lets the standard introspection query (seven
		// ofType levels under fields.args.type) pass the default depth.
		depth = sub.depth
	}
	return measure{depth: depth, cost: mulCost(addCost(1, sub.cost), mult)}
}

func (z *analyzer) fieldDef(parent *gql.Object, name string) *gql.FieldDefinition {
	switch name {
	case "__schema":
		return gql.SchemaMetaFieldDef
	case "__type":
		return gql.TypeMetaFieldDef
	}
	if parent == nil {
		return nil
	}
	return parent.Fields()[name]
}

// limitOf is the multiplier of a list query: its limit argument (a literal or a variable), or the
// default limit when it is absent or unusable (the resolver rejects unusable ones).
func (z *analyzer) limitOf(f *ast.Field) int {
	for _, arg := range f.Arguments {
		if nameOf(arg.Name) != "limit" {
			continue
		}
		var n int64
		switch v := arg.Value.(type) {
		case *ast.IntValue:
			i, err := strconv.ParseInt(v.Value, 10, 64)
			if err != nil {
				return maxCost // out of range: the resolver refuses it anyway
			}
			n = i
		case *ast.Variable:
			switch x := z.vars[nameOf(v.Name)].(type) {
			case float64:
				n = int64(max(min(x, maxCost), -1))
			case int:
				n = int64(x)
			case int64:
				n = x
			default:
				return query.DefaultLimit // absent or null: the default applies
			}
		default:
			return query.DefaultLimit
		}
		switch {
		case n < 1:
			return 1
		case n > maxCost:
			return maxCost
		}
		return int(n)
	}
	return query.DefaultLimit
}

func addCost(a, b int) int {
	if a > maxCost-b {
		return maxCost
	}
	return a + b
}

func mulCost(a, b int) int {
	if a != 0 && b > maxCost/a {
		return maxCost
	}
	return a * b
}
