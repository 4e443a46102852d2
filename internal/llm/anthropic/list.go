package anthropic

import (
	"context"
	"time"
)

// listTimeout bounds ListModels: a list is asked for while the person
// waits at the prompt.
const listTimeout = 10 * time.Second

// ListModels returns the models the server serves (GET v1/models?limit=100).
func (m *Model) ListModels(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	ids, res, err := m.client.ModelIDs(ctx, "v1/models?limit=100")
	if err != nil {
		return nil, m.streamError(ctx, err, res)
	}
	return ids, nil
}
