package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"golang.org/x/term"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/password"
	"cms/content/sessions"
)

var emailRE = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

// cmdMakeUser creates a user file (users/{id}.yaml):
//
//	cms make-user [--site DIR]                       prompts for email, name, password (hidden, twice) and roles (no default)
//	cms make-user --email E --name N --roles a,b --password-stdin [--id ID] [--site DIR]
//
// The second form is for scripts: the password is the first line of standard input. Duplicate
// ids or emails, unknown roles and passwords outside the policy are refused with exit status 1.
func cmdMakeUser(ctx context.Context, e env, args []string) error {
	fl := newFlags("make-user", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	id := fl.String("id", "", "user id, the file name (default: a random UUID)")
	email := fl.String("email", "", "email address (the login)")
	name := fl.String("name", "", "display name")
	roles := fl.String("roles", "", "comma-separated role handles")
	pwStdin := fl.Bool("password-stdin", false, "read the password from the first line of standard input, without prompts")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 0 {
		return fmt.Errorf("make-user takes no arguments, only flags (see cms make-user -h)")
	}
	rolesSet := false
	fl.Visit(func(f *flag.Flag) { rolesSet = rolesSet || f.Name == "roles" })
	if *pwStdin {
		var missing []string
		for _, f := range []struct{ name, v string }{{"--email", *email}, {"--name", *name}, {"--roles", *roles}} {
			if f.v == "" {
				missing = append(missing, f.name)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("--password-stdin needs %s: standard input carries only the password", strings.Join(missing, ", "))
		}
	}
	_, st, err := openSite(ctx, e, *site, false)
	if err != nil {
		return err
	}
	defer st.Close()
	available := make([]string, 0)
	for _, r := range st.Roles() {
		available = append(available, r.Handle)
	}
	p := newPrompter(e)

	u := &content.User{ID: *id}
	if u.ID != "" {
		if msg := checkUserID(st, u.ID); msg != "" {
			return errors.New(msg)
		}
	} else {
		u.ID = uuid.NewString()
	}
	if u.Email, err = p.value("Email", *email, func(v string) string { return checkEmail(st, v) }); err != nil {
		return err
	}
	u.Email = fsstore.NormalizeEmail(u.Email)
	if u.Name, err = p.value("Display name", *name, func(v string) string {
		if strings.TrimSpace(v) == "" {
			return "the name must not be empty"
		}
		return ""
	}); err != nil {
		return err
	}
	u.Name = strings.TrimSpace(u.Name)
	pw, err := p.password(*pwStdin)
	if err != nil {
		return err
	}
	givenRoles := *roles
	if !rolesSet && givenRoles == "" {
		// No default: an empty answer once granted every role, admin included.
		givenRoles, err = p.ask(fmt.Sprintf("Roles, comma-separated (available: %s): ", strings.Join(available, ",")), func(v string) string {
			return checkRoles(v, available)
		})
		if err != nil {
			return err
		}
	}
	if msg := checkRoles(givenRoles, available); msg != "" {
		return errors.New(msg)
	}
	u.Roles = splitRoles(givenRoles)
	if u.PasswordHash, err = password.Hash(pw); err != nil {
		return err
	}
	u.CreatedAt = time.Now().UTC().Format(sessions.TimeFormat)
	if err := st.CreateUser(u); err != nil {
		if content.KindOf(err) == content.Conflict || content.KindOf(err) == content.Invalid {
			var ce *content.Error
			if errors.As(err, &ce) && ce.Message != "" {
				return errors.New(ce.Message)
			}
		}
		return err
	}
	fmt.Fprintf(e.stdout, "User created: %s (%s, roles: %s)\n", path.Join(st.UsersDir(), u.ID+".yaml"), u.Email, strings.Join(u.Roles, ", "))
	return nil
}

func checkUserID(st *fsstore.Store, id string) string {
	if !content.ValidHandle(id) || id == "me" || id == "capabilities" {
		return fmt.Sprintf("invalid user id %q: use letters, digits, '-' and '_', starting with a letter or digit", id)
	}
	if _, err := st.User(id); err == nil {
		return fmt.Sprintf("a user with id %q already exists", id)
	}
	return ""
}

func checkEmail(st *fsstore.Store, v string) string {
	v = fsstore.NormalizeEmail(v)
	if !emailRE.MatchString(v) {
		return fmt.Sprintf("%q is not an email address", v)
	}
	if _, err := st.UserByEmail(v); err == nil {
		return fmt.Sprintf("a user with email %s already exists", v)
	}
	return ""
}

func splitRoles(v string) []string {
	var out []string
	for _, r := range strings.Split(v, ",") {
		if r = strings.TrimSpace(r); r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func checkRoles(v string, available []string) string {
	roles := splitRoles(v)
	if len(roles) == 0 {
		if len(available) == 0 {
			return "choose at least one role: the site defines none (add one under resources/roles/)"
		}
		return fmt.Sprintf("choose at least one role (available: %s); none is granted by default", strings.Join(available, ", "))
	}
	for _, r := range roles {
		if !slices.Contains(available, r) {
			return fmt.Sprintf("unknown role %q (available: %s)", r, strings.Join(available, ", "))
		}
	}
	return ""
}

// prompter asks for values on stdout and reads answers from stdin. On a terminal, password
// input is hidden and invalid answers are asked again; from a pipe, the first invalid answer is
// an error.
type prompter struct {
	e   env
	in  *bufio.Reader
	tty *os.File // stdin when it is a terminal
}

func newPrompter(e env) *prompter {
	p := &prompter{e: e, in: bufio.NewReader(e.stdin)}
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = f
	}
	return p
}

// line reads one line without its line ending; io.EOF only when nothing was read.
func (p *prompter) line() (string, error) {
	s, err := p.in.ReadString('\n')
	if err != nil && (err != io.EOF || s == "") {
		return "", err
	}
	return strings.TrimRight(s, "\r\n"), nil
}

// ask prints prompt and reads an answer that check accepts ("" = fine).
func (p *prompter) ask(prompt string, check func(string) string) (string, error) {
	for {
		fmt.Fprint(p.e.stdout, prompt)
		v, err := p.line()
		if err != nil {
			return "", fmt.Errorf("no answer for %q: %w", strings.TrimSpace(prompt), err)
		}
		v = strings.TrimSpace(v)
		msg := check(v)
		if msg == "" {
			return v, nil
		}
		if p.tty == nil {
			return "", errors.New(msg)
		}
		fmt.Fprintln(p.e.stdout, "  "+msg)
	}
}

// value returns flagValue after checking it, or asks for the value when the flag was not given.
func (p *prompter) value(label, flagValue string, check func(string) string) (string, error) {
	if flagValue != "" {
		if msg := check(flagValue); msg != "" {
			return "", errors.New(msg)
		}
		return flagValue, nil
	}
	return p.ask(label+": ", check)
}

// secret reads a password, hidden on a terminal.
func (p *prompter) secret(prompt string) (string, error) {
	fmt.Fprint(p.e.stdout, prompt)
	if p.tty != nil {
		b, err := term.ReadPassword(int(p.tty.Fd()))
		fmt.Fprintln(p.e.stdout)
		return string(b), err
	}
	s, err := p.line()
	if err != nil {
		return "", fmt.Errorf("no answer for %q: %w", strings.TrimSpace(prompt), err)
	}
	return s, nil
}

// password reads the new password: one line from stdin for scripts, else asked twice.
func (p *prompter) password(fromStdin bool) (string, error) {
	if fromStdin {
		pw, err := p.line()
		if err != nil {
			return "", fmt.Errorf("read the password from standard input: %w", err)
		}
		if msg := password.CheckPolicy(pw); msg != "" {
			return "", errors.New(msg)
		}
		return pw, nil
	}
	for {
		pw, err := p.secret("Password: ")
		if err != nil {
			return "", err
		}
		msg := password.CheckPolicy(pw)
		if msg == "" {
			again, err := p.secret("Confirm password: ")
			if err != nil {
				return "", err
			}
			if again == pw {
				return pw, nil
			}
			msg = "the passwords do not match"
		}
		if p.tty == nil {
			return "", errors.New(msg)
		}
		fmt.Fprintln(p.e.stdout, "  "+msg)
	}
}
