// Package lambda holds the AWS Lambda functions of the service: one main per endpoint group in
// runtime/lambda/<group> (generated from runtime/groups.All by go generate ./runtime/lambda, which
// also writes infra/template.yaml), the shared start-up code in lambdamain, and the tests that
// keep them honest: every group has a main and no main lacks a group, each main links only its
// own group, and each bootstrap answers API Gateway events exactly as the local server answers
// the same requests.
package lambda

//go:generate go run ./internal/generate
