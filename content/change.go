package content

// Editor names who made a change, for attribution in version control (git sync). The zero
// Editor is "not known": a hand edit, the command line, a background job.
type Editor struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// EditorOf returns the Editor of a signed-in user; nil gives the zero Editor.
func EditorOf(u *User) Editor {
	if u == nil {
		return Editor{}
	}
	name := u.Name
	if name == "" {
		name = u.Email
	}
	return Editor{Name: name, Email: u.Email}
}

// A Change is one successful write of the site folder, reported after the bytes are durable.
type Change struct {
	// Paths are site-relative, slash-separated files the write created, replaced or removed
	// (a rename lists both names; a removed folder is named once).
	Paths []string
	// Message describes the change in a few words ("Updated entry blog/hello").
	Message string
	Editor  Editor
	// External marks a change made outside the service, seen by the file watcher.
	External bool
}

// ExternalChangeMessage describes changes made by hand, seen by the file watcher.
const ExternalChangeMessage = "Updated content from filesystem"
