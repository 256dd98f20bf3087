package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	gql "github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"

	"cms/content"
)

// Bounds of the variables of one request.
const (
	maxVariables     = 100
	maxVariableDepth = 16
	maxVariableNodes = 10_000
)

// decodeVariables decodes the variables of a request: absent or null is none, anything but a JSON
// object is refused, and so are objects with too many variables or values nested too deeply.
// Numbers decode as float64, which graphql-go coerces to Int or Float.
func decodeVariables(raw []byte) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("variables must be a JSON object")
	}
	if d := content.JSONNesting(raw); d > maxVariableDepth+1 {
		return nil, fmt.Errorf("variables are nested more than %d levels deep", maxVariableDepth)
	}
	var vars map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&vars); err != nil {
		return nil, fmt.Errorf("variables are not a valid JSON object: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("variables have data after the JSON object")
	}
	if len(vars) > maxVariables {
		return nil, fmt.Errorf("at most %d variables are allowed", maxVariables)
	}
	nodes := 0
	for _, v := range vars {
		nodes += countNodes(v)
	}
	if nodes > maxVariableNodes {
		return nil, fmt.Errorf("variables hold more than %d values", maxVariableNodes)
	}
	return vars, nil
}

func countNodes(v any) int {
	switch x := v.(type) {
	case []any:
		n := 1
		for _, e := range x {
			n += countNodes(e)
		}
		return n
	case map[string]any:
		n := 1
		for _, e := range x {
			n += countNodes(e)
		}
		return n
	}
	return 1
}

// checkVariables checks the variables an operation declares against their types, strictly: a
// Boolean must be true or false, an Int a whole number, a String a string. graphql-go itself
// would turn "yes" into true and 3 into "3"; typed filters should not.
func checkVariables(schema *gql.Schema, op *ast.OperationDefinition, vars map[string]any) error {
	for _, def := range op.VariableDefinitions {
		if def == nil || def.Variable == nil {
			continue
		}
		name := nameOf(def.Variable.Name)
		v, present := vars[name]
		if !present && def.DefaultValue != nil {
			continue
		}
		if err := checkASTType(schema, def.Type, v, "$"+name); err != nil {
			return err
		}
	}
	return nil
}

func checkASTType(schema *gql.Schema, t ast.Type, v any, at string) error {
	switch tt := t.(type) {
	case *ast.NonNull:
		if v == nil {
			return fmt.Errorf("variable %s is required", at)
		}
		return checkASTType(schema, tt.Type, v, at)
	case *ast.List:
		if v == nil {
			return nil
		}
		if list, ok := v.([]any); ok {
			for i, e := range list {
				if err := checkASTType(schema, tt.Type, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
			return nil
		}
		return checkASTType(schema, tt.Type, v, at) // a single value stands for a list of one
	case *ast.Named:
		named := schema.Type(nameOf(tt.Name))
		if named == nil {
			return nil // unknown type: validation reports it
		}
		return checkValue(named, v, at)
	}
	return nil
}

// checkValue checks v against an input type.
func checkValue(t gql.Type, v any, at string) error {
	switch tt := t.(type) {
	case *gql.NonNull:
		if v == nil {
			return fmt.Errorf("%s is required", at)
		}
		return checkValue(tt.OfType, v, at)
	case *gql.List:
		if v == nil {
			return nil
		}
		if list, ok := v.([]any); ok {
			for i, e := range list {
				if err := checkValue(tt.OfType, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
			return nil
		}
		return checkValue(tt.OfType, v, at)
	}
	if v == nil {
		return nil
	}
	switch tt := t.(type) {
	case *gql.InputObject:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s must be an object (%s), got %s", at, tt.Name(), jsonKind(v))
		}
		fields := tt.Fields()
		for k, fv := range m {
			f, ok := fields[k]
			if !ok {
				return fmt.Errorf("%s has no field %q (%s)", at, k, tt.Name())
			}
			if err := checkValue(f.Type, fv, at+"."+k); err != nil {
				return err
			}
		}
		for k, f := range fields {
			if _, ok := m[k]; !ok {
				if _, required := f.Type.(*gql.NonNull); required {
					return fmt.Errorf("%s.%s is required", at, k)
				}
			}
		}
		return nil
	case *gql.Scalar:
		ok := true
		want := tt.Name()
		switch want {
		case "Boolean":
			_, ok = v.(bool)
		case "String":
			_, ok = v.(string)
		case "ID":
			switch x := v.(type) {
			case string:
			case float64:
				ok = x == math.Trunc(x)
			default:
				ok = false
			}
		case "Int":
			x, isNum := v.(float64)
			ok = isNum && x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32
			want = "Int (a whole number between -2147483648 and 2147483647)"
		case "Float":
			_, ok = v.(float64)
		default:
			return fmt.Errorf("%s has type %s, which is not an input type", at, tt.Name())
		}
		if !ok {
			return fmt.Errorf("%s must be %s %s, got %s", at, article(want), want, jsonKind(v))
		}
		return nil
	case *gql.Enum:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s must be one of the values of %s, got %s", at, tt.Name(), jsonKind(v))
		}
		return nil
	}
	return fmt.Errorf("%s has a type that is not an input type", at)
}

func article(s string) string {
	switch s[0] {
	case 'A', 'E', 'I', 'O', 'U':
		return "an"
	}
	return "a"
}

// jsonKind names the JSON type of a decoded value (never the value itself, which may be large).
func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		if x == math.Trunc(x) {
			return "the number " + fmt.Sprint(x)
		}
		return "a fractional number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
