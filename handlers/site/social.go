package site

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"

	"cms/content/seo"
	"cms/content/seo/socialcard"
)

// socialImage answers /_social/{page}.png: the generated card of a published page whose
// metadata names no image of its own (what og:image points at under seo.socialImages). A card
// is drawn from the page's social title and site name, so it changes exactly when they do.
func (q *request) socialImage(rest string) {
	path, ok := seo.SocialImagePage(rest)
	if !ok {
		q.notFound()
		return
	}
	page, _ := q.find(path)
	if page == nil || page.SEO.Excluded || page.SEO.Image != q.site.Absolute(rest) {
		q.notFound() // no such page, or one with an image of its own
		return
	}
	card := socialcard.Card{Title: page.SEO.SocialTitle, Site: page.SEO.SiteName}
	if card.Title == "" {
		card.Title = page.Title
	}
	if card.Site == "" {
		card.Site, _ = page.Settings["site_name"].(string)
	}
	sum := sha256.Sum256([]byte(card.Title + "\x00" + card.Site))
	etag := `"sc-` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
	png, ok := q.s.cards.Get(etag)
	if !ok {
		var err error
		if png, err = socialcard.Render(card); err != nil {
			q.s.Log.Error("social image", "path", path, "err", err)
			q.serverError()
			return
		}
		q.s.cards.Put(etag, png, int64(len(png)+len(etag)+64))
	}
	q.sendTagged(http.StatusOK, "image/png", q.s.CacheControl, png, etag)
}
