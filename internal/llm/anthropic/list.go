package anthropic

import (
	"context"
	"net/http"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// listTimeout bounds ListModels: a list is asked for while the person
// waits at the prompt.
const listTimeout = 10 * time.Second

// ListModels returns the models the API serves (GET /v1/models), the
// first page, newest first.
func (m *Model) ListModels(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	svc := anthropic.NewModelService(m.client.Options...)
	var res *http.Response
	page, err := svc.List(ctx, anthropic.ModelListParams{Limit: anthropic.Int(100)}, option.WithResponseInto(&res), option.WithMaxRetries(0))
	if err != nil {
		return nil, m.streamError(ctx, err, res)
	}
	var out []string
	for _, d := range page.Data {
		if d.ID != "" {
			out = append(out, d.ID)
		}
	}
	return out, nil
}
