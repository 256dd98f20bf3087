package lambdagen_test

import (
	"slices"
	"testing"

	"cms/runtime/lambda/lambdagen"
)

// Route keys follow ServeMux patterns: a subtree, an exact path, and an exact path ending in a
// slash ("/{$}", the root), which API Gateway knows as a plain path.
func TestRoutes(t *testing.T) {
	t.Parallel()
	got := lambdagen.Routes([]string{"/api/health/", "/{$}", "/cp", "/cp/"})
	want := []string{"ANY /api/health", "ANY /api/health/{proxy+}", "ANY /", "ANY /cp", "ANY /cp/{proxy+}"}
	if !slices.Equal(got, want) {
		t.Errorf("Routes = %q, want %q", got, want)
	}
}
