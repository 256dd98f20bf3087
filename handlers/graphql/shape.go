package graphql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/printer"
)

// Bounds on the shape of a document, checked before graphql-go validates it: several of its
// validation rules take time quadratic in these counts (3,000 unused variables, or a filter with
// 2,000 fields, keep it busy for seconds), and no real query comes near them.
const (
	maxDefinitions   = 100  // operations and fragments of one document
	maxVariableDefs  = 100  // variables one operation declares (the same bound as maxVariables)
	maxArguments     = 20   // arguments of one field or directive
	maxDirectives    = 10   // directives on one selection
	maxObjectFields  = 200  // fields of one input object literal
	maxListValues    = 100  // values of one list literal
	maxSelectionSets = 5000 // selection sets of one document
)

// checkShape refuses documents beyond the bounds above, with QUERY_TOO_COMPLEX.
func checkShape(doc *ast.Document) *gqlError {
	if n := len(doc.Definitions); n > maxDefinitions {
		return newError(CodeTooComplex, "The document holds %d operations and fragments; at most %d are allowed", n, maxDefinitions)
	}
	s := shape{}
	for _, d := range doc.Definitions {
		switch def := d.(type) {
		case *ast.OperationDefinition:
			if n := len(def.VariableDefinitions); n > maxVariableDefs {
				return newError(CodeTooComplex, "The operation declares %d variables; at most %d are allowed", n, maxVariableDefs)
			}
			for _, v := range def.VariableDefinitions {
				if v != nil {
					s.value(v.DefaultValue)
				}
			}
			s.directives(def.Directives)
			s.selectionSet(def.SelectionSet)
		case *ast.FragmentDefinition:
			s.directives(def.Directives)
			s.selectionSet(def.SelectionSet)
		}
		if s.err != nil {
			return s.err
		}
	}
	return s.err
}

type shape struct {
	sets int
	err  *gqlError
}

func (s *shape) selectionSet(ss *ast.SelectionSet) {
	if ss == nil || s.err != nil {
		return
	}
	s.sets++
	if s.sets > maxSelectionSets {
		s.err = newError(CodeTooComplex, "The document holds more than %d selection sets", maxSelectionSets)
		return
	}
	for _, sel := range ss.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			s.arguments(x.Arguments)
			s.directives(x.Directives)
			s.selectionSet(x.SelectionSet)
		case *ast.InlineFragment:
			s.directives(x.Directives)
			s.selectionSet(x.SelectionSet)
		case *ast.FragmentSpread:
			s.directives(x.Directives)
		}
	}
}

func (s *shape) directives(ds []*ast.Directive) {
	if len(ds) > maxDirectives && s.err == nil {
		s.err = newError(CodeTooComplex, "A selection carries %d directives; at most %d are allowed", len(ds), maxDirectives)
	}
	for _, d := range ds {
		if d != nil {
			s.arguments(d.Arguments)
		}
	}
}

func (s *shape) arguments(args []*ast.Argument) {
	if len(args) > maxArguments && s.err == nil {
		s.err = newError(CodeTooComplex, "A field is given %d arguments; at most %d are allowed", len(args), maxArguments)
	}
	for _, a := range args {
		if a != nil {
			s.value(a.Value)
		}
	}
}

func (s *shape) value(v ast.Value) {
	if s.err != nil {
		return
	}
	switch x := v.(type) {
	case *ast.ObjectValue:
		if len(x.Fields) > maxObjectFields {
			s.err = newError(CodeTooComplex, "An input object has %d fields; at most %d are allowed", len(x.Fields), maxObjectFields)
			return
		}
		for _, f := range x.Fields {
			if f != nil {
				s.value(f.Value)
			}
		}
	case *ast.ListValue:
		if len(x.Values) > maxListValues {
			s.err = newError(CodeTooComplex, "A list has %d values; at most %d are allowed", len(x.Values), maxListValues)
			return
		}
		for _, e := range x.Values {
			s.value(e)
		}
	}
}

// checkMerge reports fields that share a response name in one selection set (fragments
// included) but are different fields or take different arguments: the answer could hold only
// one of them. It stands in for graphql-go's OverlappingFieldsCanBeMerged rule in linear time;
// unlike that rule it does not compare the sub-selections of same-named fields, which the
// executor merges.
func checkMerge(doc *ast.Document) *gqlError {
	m := &merger{frags: map[string]*ast.FragmentDefinition{}, top: map[string]map[string]string{}, active: map[string]bool{}}
	for _, d := range doc.Definitions {
		if f, ok := d.(*ast.FragmentDefinition); ok {
			if _, dup := m.frags[nameOf(f.Name)]; !dup {
				m.frags[nameOf(f.Name)] = f
			}
		}
	}
	for _, d := range doc.Definitions {
		switch def := d.(type) {
		case *ast.OperationDefinition:
			m.selectionSet(def.SelectionSet)
		case *ast.FragmentDefinition:
			m.fragment(nameOf(def.Name))
		}
		if m.err != nil {
			return m.err
		}
	}
	return nil
}

type merger struct {
	frags  map[string]*ast.FragmentDefinition
	top    map[string]map[string]string // fragment -> response name -> field signature
	active map[string]bool
	err    *gqlError
}

// selectionSet returns the response names of ss with their field signatures, after checking
// that they agree and checking every nested selection set.
func (m *merger) selectionSet(ss *ast.SelectionSet) map[string]string {
	names := map[string]string{}
	if ss == nil {
		return names
	}
	add := func(key, sig string) {
		if prev, ok := names[key]; ok && prev != sig {
			if m.err == nil {
				m.err = newError(CodeValidationFailed, "Fields %q conflict because they are different fields or have different arguments (%s and %s). Use different aliases on the fields to fetch both if this was intentional.", key, prev, sig)
			}
			return
		}
		names[key] = sig
	}
	for _, sel := range ss.Selections {
		switch x := sel.(type) {
		case *ast.Field:
			key := nameOf(x.Name)
			if x.Alias != nil {
				key = x.Alias.Value
			}
			add(key, signature(x))
			m.selectionSet(x.SelectionSet)
		case *ast.InlineFragment:
			for k, sig := range m.selectionSet(x.SelectionSet) {
				add(k, sig)
			}
		case *ast.FragmentSpread:
			for k, sig := range m.fragment(nameOf(x.Name)) {
				add(k, sig)
			}
		}
	}
	return names
}

func (m *merger) fragment(name string) map[string]string {
	if t, ok := m.top[name]; ok {
		return t
	}
	f := m.frags[name]
	if f == nil || m.active[name] {
		return nil // unknown or cyclic: reported elsewhere
	}
	m.active[name] = true
	t := m.selectionSet(f.SelectionSet)
	delete(m.active, name)
	m.top[name] = t
	return t
}

// signature is a field's name and arguments, in a canonical form.
func signature(f *ast.Field) string {
	if len(f.Arguments) == 0 {
		return nameOf(f.Name)
	}
	args := make([]string, 0, len(f.Arguments))
	for _, a := range f.Arguments {
		if a == nil {
			continue
		}
		args = append(args, fmt.Sprintf("%s: %v", nameOf(a.Name), printer.Print(a.Value)))
	}
	sort.Strings(args)
	return nameOf(f.Name) + "(" + strings.Join(args, ", ") + ")"
}
