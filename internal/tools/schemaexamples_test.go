package tools

// The exports of exampleRead and exampleBash as IndentSchema prints them for
// a person (forge schema): what a provider receives, compacted, and what the
// shell shows.

const prettyOpenAIRead = `{
  "type": "function",
  "function": {
    "name": "Read",
    "description": "Read contents of a file from the filesystem",
    "parameters": {
      "type": "object",
      "properties": {
        "file_path": {
          "type": "string",
          "description": "Absolute path to the file to read"
        },
        "offset": {
          "type": "integer",
          "description": "Line number to start reading from",
          "minimum": 0
        },
        "limit": {
          "type": "integer",
          "description": "Maximum number of lines to read",
          "minimum": 1,
          "maximum": 10000
        }
      },
      "required": ["file_path"]
    }
  }
}`

const prettyOpenAIBash = `{
  "type": "function",
  "function": {
    "name": "Bash",
    "description": "Execute a bash command",
    "parameters": {
      "type": "object",
      "properties": {
        "command": {
          "type": "string",
          "description": "The command to execute"
        },
        "timeout": {
          "type": "integer",
          "description": "Timeout in milliseconds",
          "default": 120000,
          "minimum": 1000,
          "maximum": 600000
        },
        "run_in_background": {
          "type": "boolean",
          "description": "Run command in background",
          "default": false
        }
      },
      "required": ["command"]
    }
  }
}`

const prettyAnthropicRead = `{
  "name": "Read",
  "description": "Read contents of a file from the filesystem",
  "input_schema": {
    "type": "object",
    "properties": {
      "file_path": {
        "type": "string",
        "description": "Absolute path to the file to read"
      },
      "offset": {
        "type": "integer",
        "description": "Line number to start reading from",
        "minimum": 0
      },
      "limit": {
        "type": "integer",
        "description": "Maximum number of lines to read",
        "minimum": 1,
        "maximum": 10000
      }
    },
    "required": ["file_path"]
  }
}`
