package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// DiscoverTimeout bounds Discover: a local server answers at once or is
// not there.
const DiscoverTimeout = 2 * time.Second

// Discover asks the OpenAI-compatible server at baseURL (default
// Ollama's) for its models (GET /models) and returns the first one's
// name. The app calls it when no provider or key is configured, to use a
// local Ollama if one runs. Nothing answering, an error answer or an empty
// list is an error; client may be nil.
func Discover(ctx context.Context, baseURL string, client *http.Client) (string, error) {
	const provider = "ollama"
	if baseURL == "" {
		baseURL = OllamaBaseURL
	}
	if client == nil {
		client = &http.Client{}
	}
	ctx, cancel := context.WithTimeout(ctx, DiscoverTimeout)
	defer cancel()
	c := &wire.Client{BaseURL: baseURL, HTTP: client}
	res, err := c.Get(ctx, "models")
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err == nil {
		err = json.NewDecoder(io.LimitReader(res.Body, 4<<20)).Decode(&page)
		_ = res.Body.Close()
	}
	if err != nil {
		m := &Model{cfg: Config{Provider: provider}, url: baseURL}
		if ctx.Err() != nil && ctx.Err() == context.DeadlineExceeded {
			return "", &llm.Error{Provider: provider, Kind: llm.KindUnreachable, URL: wire.RedactURL(baseURL),
				Message: fmt.Sprintf("no answer within %s", DiscoverTimeout), Err: ctx.Err()}
		}
		return "", m.streamError(ctx, err, res)
	}
	for _, model := range page.Data {
		if model.ID != "" {
			return model.ID, nil
		}
	}
	return "", fmt.Errorf("%s: no models at %s: pull one (ollama pull NAME)", provider, wire.RedactURL(baseURL))
}
