package serve

import (
	"context"

	"github.com/aws/aws-lambda-go/lambdacontext"
)

// lambdaRequestID returns the AWS request ID when running on Lambda.
func lambdaRequestID(ctx context.Context) string {
	if lc, ok := lambdacontext.FromContext(ctx); ok {
		return lc.AwsRequestID
	}
	return ""
}
