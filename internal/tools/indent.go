package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// IndentSchema pretty-prints JSON for a person reading a schema: objects
// one key per line, keys in their original order, and arrays of scalars on
// one line (["file_path"], ["json", "yaml"]). json.Indent would
// break such arrays over several lines.
func IndentSchema(src []byte, indent string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the value")
	}
	var b bytes.Buffer
	n.write(&b, indent, 0)
	return b.Bytes(), nil
}

// node is a JSON value with its object keys in order.
type node struct {
	delim  json.Delim // '{' or '[' for containers, 0 for scalars
	scalar []byte     // a scalar, as JSON
	keys   []string
	kids   []node
}

func readNode(dec *json.Decoder) (node, error) {
	tok, err := dec.Token()
	if err != nil {
		return node{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := node{delim: t}
		for dec.More() {
			if t == '{' {
				k, err := dec.Token()
				if err != nil {
					return node{}, err
				}
				n.keys = append(n.keys, k.(string))
			}
			kid, err := readNode(dec)
			if err != nil {
				return node{}, err
			}
			n.kids = append(n.kids, kid)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return node{}, err
		}
		return n, nil
	default:
		var b bytes.Buffer
		writeValue(&b, t)
		return node{scalar: b.Bytes()}, nil
	}
}

func (n node) write(b *bytes.Buffer, indent string, depth int) {
	if n.delim == 0 {
		b.Write(n.scalar)
		return
	}
	open, close := byte('{'), byte('}')
	if n.delim == '[' {
		open, close = '[', ']'
	}
	b.WriteByte(open)
	if len(n.kids) == 0 {
		b.WriteByte(close)
		return
	}
	if n.delim == '[' && allScalars(n.kids) {
		for i, k := range n.kids {
			if i > 0 {
				b.WriteString(", ")
			}
			b.Write(k.scalar)
		}
		b.WriteByte(close)
		return
	}
	for i, k := range n.kids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		writeIndent(b, indent, depth+1)
		if n.delim == '{' {
			writeString(b, n.keys[i])
			b.WriteString(": ")
		}
		k.write(b, indent, depth+1)
	}
	b.WriteByte('\n')
	writeIndent(b, indent, depth)
	b.WriteByte(close)
}

func allScalars(ns []node) bool {
	for _, n := range ns {
		if n.delim != 0 {
			return false
		}
	}
	return true
}

func writeIndent(b *bytes.Buffer, indent string, depth int) {
	for range depth {
		b.WriteString(indent)
	}
}
