package entries

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// Messages of the engine's own checks (the blueprint's come from content/validate).
const (
	msgTitleRequired = "Title is required"
	msgSlugUnusable  = "Could not derive a slug from the title: give a slug made of letters, digits, '-' and '_'"
	msgHashRequired  = "contentHash is required"
	msgHashMismatch  = "contentHash and If-Match name different versions"
	msgInvalid       = "Entry data is invalid"
)

// conflictDetails are the facts of a stale-hash conflict, as Madori clients read them.
type conflictDetails struct {
	SubmittedHash string `json:"submittedHash"`
	CurrentHash   string `json:"currentHash"`
}

// readInput reads and decodes an entry body. Shape errors come back as an Invalid error; the
// caller stops there, before anything is read from the store.
func (a *api) readInput(w http.ResponseWriter, r *http.Request) (*Input, error) {
	var raw json.RawMessage
	if err := web.DecodeJSON(w, r, a.BodyLimit, &raw); err != nil {
		return nil, err
	}
	return DecodeEntry(raw)
}

// POST /api/entries/{collection}: create an entry.
func (a *api) create(w http.ResponseWriter, r *http.Request) error {
	const op = "entries.create"
	p, c, err := a.begin(r, "create")
	if err != nil {
		return err
	}
	in, err := a.readInput(w, r)
	if err != nil {
		return err
	}
	status := c.DefaultStatus
	if in.Status != nil {
		status = *in.Status
	}
	if status == "" {
		status = content.StatusDraft
	}
	if status == content.StatusPublished {
		if err := p.Require("entries", "publish", c.Handle); err != nil {
			return err
		}
	}
	fe := content.FieldErrors{}
	e := &content.Entry{Collection: c.Handle, Status: status, Data: content.NewMap(in.Data.Len())}
	switch {
	case in.Title == nil:
		fe.Add("title", msgTitleRequired)
	default:
		e.Title = *in.Title
	}
	switch {
	case in.Slug != nil:
		e.Slug = *in.Slug
	case in.Title != nil:
		if e.Slug = Slugify(*in.Title); e.Slug == "" {
			fe.Add("slug", msgSlugUnusable)
		}
	}
	if in.Author != nil {
		e.Author = *in.Author
	}
	if in.Content != nil {
		e.Content = strings.TrimSpace(*in.Content) // as the file keeps it, so the response matches a later read
	}
	for _, k := range in.Data.Keys() {
		if v := in.Data.Value(k); v != nil { // null clears; on create there is nothing to clear
			e.Data.Set(k, v)
		}
	}
	if err := a.check(r, op, c, e, fe); err != nil {
		return err
	}
	saved, err := a.storeFor(p).CreateEntry(e)
	if err != nil {
		return err
	}
	body, hash, err := a.remember(c, saved)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/entries/"+c.Handle+"/"+saved.Slug)
	w.Header().Set("ETag", `"`+hash+`"`)
	writeData(w, r, http.StatusCreated, body)
	return nil
}

// PUT /api/entries/{collection}/{slug}: update an entry; needs the contentHash it was read with.
func (a *api) update(w http.ResponseWriter, r *http.Request) error {
	const op = "entries.update"
	p, c, err := a.begin(r, "edit")
	if err != nil {
		return err
	}
	slug, err := pathSlug(r)
	if err != nil {
		return err
	}
	in, err := a.readInput(w, r)
	fe := content.FieldErrors{}
	if err != nil {
		// Only field errors come with an Input to add messages to; a body that could not be
		// decoded at all (nested too deeply, say) stops here.
		ce, ok := errors.AsType[*content.Error](err)
		if !ok || ce.Kind != content.Invalid || in == nil {
			return err
		}
		for k, msgs := range ce.Fields {
			fe[k] = msgs
		}
	}
	hash := in.ContentHash
	im, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	switch {
	case im == "":
	case hash != "" && hash != im:
		fe.Add("contentHash", msgHashMismatch)
	default:
		hash = im
	}
	if hash == "" && len(fe["contentHash"]) == 0 {
		fe.Add("contentHash", msgHashRequired)
	}
	if len(fe) > 0 {
		msg := msgInvalid
		if len(fe) == 1 && slices.Equal(fe["contentHash"], []string{msgHashRequired}) {
			msg = "contentHash is required for update operations"
		}
		return content.InvalidFields(op, msg, fe)
	}
	cur, err := a.Store.Entry(c.Handle, slug)
	if err != nil {
		return err
	}
	// Checked on the file as it is now: should it be published between here and the write, its
	// hash changes and the store's check under its lock refuses the write.
	if err := p.RequireEntryChange(cur, "edit"); err != nil {
		return err
	}
	if cur.Hash != hash {
		return staleError(op, hash, cur.Hash)
	}
	if in.Status != nil && (*in.Status == content.StatusPublished) != cur.Published() {
		if err := p.Require("entries", "publish", c.Handle); err != nil {
			return err
		}
	}
	next := merge(cur, in)
	if err := a.check(r, op, c, next, content.FieldErrors{}); err != nil {
		return err
	}
	saved, err := a.storeFor(p).UpdateEntry(c.Handle, slug, hash, next)
	if err != nil {
		return err
	}
	if saved.Slug != slug {
		a.cache.Delete(fragKey(c.Handle, slug))
	}
	a.moved(c, cur, saved)
	body, newHash, err := a.remember(c, saved)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", `"`+newHash+`"`)
	writeData(w, r, http.StatusOK, body)
	return nil
}

// moved tells Deps.Moved when a published entry stays published at another public URL.
func (a *api) moved(c *content.Collection, before, after *content.Entry) {
	if a.Moved == nil || !before.Published() || !after.Published() {
		return
	}
	from, to := content.EntryURL(c, before), content.EntryURL(c, after)
	if from == "" || to == "" || from == to {
		return
	}
	if err := a.Moved(from, to); err != nil {
		a.Log.Error("no redirect from the entry's old URL", "collection", c.Handle, "from", from, "to", to, "err", err)
	}
}

func staleError(op, submitted, current string) error {
	return &content.Error{Kind: content.Conflict, Op: op,
		Message: fmt.Sprintf("Content has been modified since it was loaded (submitted: %s, current: %s)", submitted, current),
		Details: conflictDetails{SubmittedHash: submitted, CurrentHash: current}}
}

// merge applies an update to the current entry: top-level fields replace when given, data is
// merged key by key, and a null data value removes the key.
func merge(cur *content.Entry, in *Input) *content.Entry {
	next := &content.Entry{Collection: cur.Collection, Slug: cur.Slug, Title: cur.Title, Status: cur.Status,
		Author: cur.Author, Content: cur.Content, Data: cur.Data.Clone()}
	if in.Title != nil {
		next.Title = *in.Title
	}
	if in.Slug != nil {
		next.Slug = *in.Slug
	}
	if in.Status != nil {
		next.Status = *in.Status
	}
	if in.Author != nil {
		next.Author = *in.Author
	}
	if in.Content != nil {
		next.Content = strings.TrimSpace(*in.Content)
	}
	for _, k := range in.Data.Keys() {
		if v := in.Data.Value(k); v == nil {
			next.Data.Delete(k)
		} else {
			next.Data.Set(k, v)
		}
	}
	return next
}

// check validates the entry to be written against the collection's blueprint (none means no
// validation) and returns every message, with those of the engine's own checks in fe, as one
// Invalid error. The blueprint sees the entry as one object, {title, slug, status, author,
// content, ...data}, so a blueprint may constrain the standard fields too.
func (a *api) check(r *http.Request, op string, c *content.Collection, e *content.Entry, fe content.FieldErrors) error {
	engineFailed := len(fe) > 0
	values := content.NewMap(5 + e.Data.Len())
	values.Set("title", e.Title)
	values.Set("slug", e.Slug)
	values.Set("status", e.Status)
	if e.Author != "" {
		values.Set("author", e.Author)
	}
	values.Set("content", e.Content)
	for _, k := range e.Data.Keys() {
		values.Set(k, e.Data.Value(k))
	}
	bfe, bp, err := validate.AgainstBlueprint(r.Context(), a.Store, content.BlueprintCollections, c.Blueprint, values,
		validate.Options{Hooks: a.Hooks, Form: c.Handle, Log: a.Log})
	if err != nil {
		return err
	}
	for k, msgs := range bfe {
		if len(fe[k]) == 0 { // the engine's message already says what is wrong
			fe[k] = msgs
		}
	}
	if !engineFailed {
		return validate.BlueprintError(op, "Entry data", bp, fe)
	}
	return fe.Err(op, msgInvalid)
}

// DELETE /api/entries/{collection}/{slug}: delete an entry.
func (a *api) delete(w http.ResponseWriter, r *http.Request) error {
	p, c, err := a.begin(r, "delete")
	if err != nil {
		return err
	}
	slug, err := pathSlug(r)
	if err != nil {
		return err
	}
	cur, err := a.Store.EntryMeta(c.Handle, slug)
	if err != nil {
		return err
	}
	if err := p.RequireEntryChange(cur, "delete"); err != nil {
		return err
	}
	if err := a.storeFor(p).DeleteEntry(c.Handle, slug); err != nil {
		return err
	}
	a.cache.Delete(fragKey(c.Handle, slug))
	web.WriteJSON(w, http.StatusOK, struct {
		Success bool `json:"success"`
	}{true})
	return nil
}
