package graphql

import "cms/content/gqlname"

// The naming rules live in content/gqlname, shared with the code generator.

func typeName(h string) string                      { return gqlname.TypeName(h) }
func queryNames(h string) (singular, plural string) { return gqlname.QueryNames(h) }
func sanitizeField(h string) string                 { return gqlname.SanitizeField(h) }
