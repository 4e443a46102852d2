package llm

// Image is a picture shown to a model: its bytes and their media type.
type Image struct {
	// MediaType is image/png, image/jpeg, image/gif or image/webp: the
	// types every provider forge speaks takes.
	MediaType string `json:"media_type"`
	// Data is the image file's bytes (base64 in JSON).
	Data []byte `json:"data"`
}
