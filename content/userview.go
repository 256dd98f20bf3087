package content

import "time"

// UserView is a user as the API shows it, in the login response and under /api/users. It has no
// field for the password hash, so the hash cannot leave the server by accident.
type UserView struct {
	ID        string   `json:"id"`
	Email     string   `json:"email"`
	Name      string   `json:"name"`
	Roles     []string `json:"roles"`
	CreatedAt string   `json:"createdAt,omitempty"`
	LastLogin string   `json:"lastLogin,omitempty"`
	Theme     string   `json:"theme,omitempty"`
}

// viewTime is how the view writes a login time: ISO 8601 in UTC with milliseconds, as session
// files and the system we follow write times.
const viewTime = "2006-01-02T15:04:05.000Z"

// View returns the API form of u. seen is the last login this process knows of (zero if none);
// the view's lastLogin is the later of it and the file's last_login, which the system we follow
// writes.
func (u *User) View(seen time.Time) UserView {
	v := UserView{ID: u.ID, Email: u.Email, Name: u.Name, Roles: u.Roles, CreatedAt: u.CreatedAt, LastLogin: u.LastLogin, Theme: u.Theme}
	if v.Roles == nil {
		v.Roles = []string{}
	}
	if !seen.IsZero() {
		if prev, err := time.Parse(time.RFC3339Nano, u.LastLogin); err != nil || seen.After(prev) {
			v.LastLogin = seen.UTC().Format(viewTime)
		}
	}
	return v
}
