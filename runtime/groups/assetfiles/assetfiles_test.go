package assetfiles_test

import (
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"cms/content/contenttest"
	"cms/content/imaging"
	"cms/content/imaging/imagingtest"
	"cms/runtime/config"
	"cms/runtime/groups/assetfiles"
	"cms/runtime/wire"
)

// The group serves configured presets; a writable site keeps the derivatives under
// .cms/derivatives/, a read-only one writes nothing.
func TestPresetsAndCacheFolder(t *testing.T) {
	t.Parallel()
	for _, readOnly := range []bool{false, true} {
		dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\nassets:\n  transforms:\n    presets:\n      thumb: {w: 20, h: 20, fit: cover, fm: webp}\n")
		if err := os.MkdirAll(filepath.Join(dir, "public/assets"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "public/assets/a.jpg"), imagingtest.JPEG(imagingtest.Photo(64, 48), 0, ""), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := config.Load(dir, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		if readOnly {
			wire.ApplyReadOnly(&cfg)
		}
		s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		h, err := wire.Mount(s, assetfiles.Group())
		if err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/assets/a.jpg?preset=thumb", nil))
		if w.Code != 200 || w.Header().Get("Content-Type") != "image/webp" {
			t.Fatalf("read-only %v: %d %s", readOnly, w.Code, w.Body)
		}
		_, err = os.Stat(filepath.Join(dir, imaging.DerivativesDir))
		if readOnly != os.IsNotExist(err) {
			t.Errorf("read-only %v: derivatives folder: %v", readOnly, err)
		}
	}
}
