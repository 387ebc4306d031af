package syntax

import "fmt"

// Error is a syntax error: the file, the position and what was wrong or
// expected. Every error Parse and ParseExpr return is an *Error.
type Error struct {
	Filename string
	Pos      Pos
	Msg      string
}

func (e *Error) Error() string {
	name := e.Filename
	if name == "" {
		name = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, e.Pos.Line, e.Pos.Col, e.Msg)
}
