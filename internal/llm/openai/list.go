package openai

import (
	"context"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// listTimeout bounds ListModels: a list is asked for while the person
// waits at the prompt.
const listTimeout = 10 * time.Second

// ListModels returns the models the server serves (GET /models).
func (m *Model) ListModels(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	svc := openai.NewModelService(m.client.Options...)
	var res *http.Response
	page, err := svc.List(ctx, option.WithResponseInto(&res), option.WithMaxRetries(0))
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
