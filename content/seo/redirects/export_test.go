package redirects

// IsNormal exposes isNormal to the fuzz test.
var IsNormal = isNormal
