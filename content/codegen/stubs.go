package codegen

func (g *gen) goPackage() error { return nil }
