package content_test

import (
	"reflect"
	"testing"
	"time"

	"cms/content"
)

// User.View is the one API form of a user (login response, /api/users).
func TestUserView(t *testing.T) {
	t.Parallel()
	seen := time.Date(2026, 6, 1, 14, 0, 0, 123e6, time.FixedZone("CEST", 2*3600))
	u := func(lastLogin string, roles []string) *content.User {
		return &content.User{ID: "ann", Email: "ann@example.com", Name: "Ann", PasswordHash: "scrypt:secret", Roles: roles,
			CreatedAt: "2026-05-01T00:00:00.000Z", LastLogin: lastLogin, Theme: "dark"}
	}
	want := func(lastLogin string) content.UserView {
		return content.UserView{ID: "ann", Email: "ann@example.com", Name: "Ann", Roles: []string{"author"},
			CreatedAt: "2026-05-01T00:00:00.000Z", LastLogin: lastLogin, Theme: "dark"}
	}
	for _, tt := range []struct {
		name string
		user *content.User
		seen time.Time
		want content.UserView
	}{
		{"no login seen: the file's", u("2026-01-01T00:00:00.000Z", []string{"author"}), time.Time{}, want("2026-01-01T00:00:00.000Z")},
		{"a later login seen, in UTC", u("2026-01-01T00:00:00.000Z", []string{"author"}), seen, want("2026-06-01T12:00:00.123Z")},
		{"the file's when later", u("2027-01-01T00:00:00Z", []string{"author"}), seen, want("2027-01-01T00:00:00Z")},
		{"the seen one when the file's does not parse", u("yesterday", []string{"author"}), seen, want("2026-06-01T12:00:00.123Z")},
		{"none at all", u("", []string{"author"}), time.Time{}, want("")},
		{"no roles is an empty list", u("", nil), time.Time{}, func() content.UserView { v := want(""); v.Roles = []string{}; return v }()},
	} {
		if got := tt.user.View(tt.seen); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: View = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
