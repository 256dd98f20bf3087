package codegen

func (g *gen) jsonSchemas() error { return nil }
func (g *gen) goPackage() error   { return nil }
func (g *gen) openAPI() error     { return nil }
