package content

// SetFieldsets returns the fieldsets that fields of the replicator, blocks and grid types offer
// as sets (options.sets; a blocks field without it offers every fieldset marked is_block), and
// the sets of those sets' own fields in turn.
func SetFieldsets(fields []Field, all []*Fieldset) map[string]*Fieldset {
	byHandle := make(map[string]*Fieldset, len(all))
	for _, fs := range all {
		byHandle[fs.Handle] = fs
	}
	out := map[string]*Fieldset{}
	var walk func([]Field)
	walk = func(fields []Field) {
		for _, f := range fields {
			if f.Type != "replicator" && f.Type != "blocks" && f.Type != "grid" {
				continue
			}
			var names []string
			if f.Options != nil {
				if v, ok := f.Options.Get("sets"); ok {
					if list, ok := v.([]any); ok {
						for _, s := range list {
							if s, ok := s.(string); ok {
								names = append(names, s)
							}
						}
					}
				}
			}
			if len(names) == 0 && f.Type == "blocks" {
				for _, fs := range all {
					if fs.IsBlock {
						names = append(names, fs.Handle)
					}
				}
			}
			for _, n := range names {
				fs, ok := byHandle[n]
				if _, seen := out[n]; !ok || seen {
					continue
				}
				out[n] = fs
				walk(fs.Fields)
			}
		}
	}
	walk(fields)
	return out
}
