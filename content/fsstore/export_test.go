package fsstore

// WriteFile lets the black-box tests write a definition file the way the store writes its own
// (atomically, noting the change for other processes); it is not part of the package's API.
func (s *Store) WriteFile(p string, data []byte, exclusive bool) error {
	return s.writeFile(p, data, 0o644, exclusive)
}
