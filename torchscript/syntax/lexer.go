package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF     tokKind = iota
	tNewline         // end of a logical line
	tIndent
	tDedent
	tIdent
	tKeyword // text is the keyword: "def", "is not", "not in", ...
	tOp      // text is the operator or delimiter: "(", "**=", "->", ...
	tInt
	tFloat
	tImag
	tString // text is the raw literal, quotes included
)

// token is one token of the source.
type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tNewline:
		return "newline"
	case tIndent:
		return "indent"
	case tDedent:
		return "dedent"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tKeyword:
		return fmt.Sprintf("keyword %q", t.text)
	case tInt, tFloat, tImag:
		return fmt.Sprintf("number %s", t.text)
	case tString:
		s := t.text
		if len(s) > 20 {
			s = s[:17] + "..."
		}
		return fmt.Sprintf("string %s", s)
	}
	return fmt.Sprintf("'%s'", t.text)
}

// keywords are TorchScript's keywords (lexer.h's TC_FORALL_TOKEN_KINDS):
// the words the lexer never returns as identifiers. `is not` and `not in`
// are single tokens.
var keywords = map[string]bool{
	"def": true, "if": true, "else": true, "elif": true, "while": true,
	"return": true, "is": true, "True": true, "False": true, "None": true,
	"and": true, "or": true, "not": true, "global": true, "for": true,
	"in": true, "raise": true, "assert": true, "break": true, "continue": true,
	"del": true, "pass": true, "class": true, "import": true, "with": true,
	"as": true, "Ellipsis": true, "NoneType": true,
}

// operators, longest first within each leading character.
var operators = []string{
	"**=", "//=", "<<=", ">>=", "...", "<=>",
	"->", "!=", "==", "<=", ">=", "//", "<<", ">>", "**",
	"+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "@=",
	"+", "-", "*", "/", "%", "@", "(", ")", "[", "]", ":", ",", "=",
	"{", "}", ">", "<", ".", "?", "!", "&", "^", "|", "~",
}

// maxNesting bounds bracket nesting and block depth, so that hostile input
// cannot exhaust the stack of the recursive parser.
const maxNesting = 500

// lexer turns source text into tokens, with Python's INDENT/DEDENT/NEWLINE
// handling: newlines inside brackets and after a backslash are ignored, blank
// and comment-only lines are skipped, and the first line's indentation is the
// base level (as in PyTorch's lexer, so indented code parses).
type lexer struct {
	filename string
	src      []byte
	off      int
	line     int
	lineOff  int // offset of the current line's first byte
	nesting  int
	open     []token // the open brackets, innermost last
	unclosed *token  // the innermost bracket still open at the end
	indents  []int
	toks     []token
	err      *Error
}

func (l *lexer) pos() Pos { return Pos{l.line, l.off - l.lineOff + 1} }

func (l *lexer) errorf(p Pos, format string, args ...any) {
	if l.err == nil {
		l.err = &Error{Filename: l.filename, Pos: p, Msg: fmt.Sprintf(format, args...)}
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

// tokenize lexes all of src.
func tokenize(filename string, src []byte) ([]token, *token, error) {
	l := &lexer{filename: filename, src: src, line: 1}
	l.toks = make([]token, 0, len(src)/4+8) // about one token per four bytes of code
	l.run()
	if l.err != nil {
		return nil, nil, l.err
	}
	return l.toks, l.unclosed, nil
}

func (l *lexer) emit(k tokKind, text string, p Pos) {
	l.toks = append(l.toks, token{kind: k, text: text, pos: p})
}

// newline moves past a '\n' at l.off.
func (l *lexer) newline() {
	l.off++
	l.line++
	l.lineOff = l.off
}

func (l *lexer) run() {
	lineHasTokens := false
	atLineStart := true
	for l.err == nil {
		if atLineStart && l.nesting == 0 {
			// measure the indentation; skip blank and comment-only lines
			i := l.off
			for i < len(l.src) && isBlank(l.src[i]) {
				i++
			}
			if i < len(l.src) && l.src[i] == '\n' {
				l.off = i
				l.newline()
				continue
			}
			if i < len(l.src) && l.src[i] == '#' {
				for i < len(l.src) && l.src[i] != '\n' {
					i++
				}
				l.off = i
				if i < len(l.src) {
					l.newline()
				}
				continue
			}
			if i < len(l.src) && l.src[i] == '\\' && i+1 < len(l.src) && l.src[i+1] == '\n' {
				// a continuation line starting a logical line: keep looking
				l.off = i + 1
				l.newline()
				continue
			}
			depth := i - l.off
			l.off = i
			atLineStart = false
			if i >= len(l.src) {
				break
			}
			p := l.pos()
			if l.indents == nil {
				l.indents = []int{depth}
			} else if top := l.indents[len(l.indents)-1]; depth > top {
				if len(l.indents) > maxNesting {
					l.errorf(p, "blocks nested more than %d deep", maxNesting)
					return
				}
				l.indents = append(l.indents, depth)
				l.emit(tIndent, "", p)
			} else if depth < top {
				for len(l.indents) > 0 && l.indents[len(l.indents)-1] > depth {
					l.indents = l.indents[:len(l.indents)-1]
					l.emit(tDedent, "", p)
				}
				if len(l.indents) == 0 || l.indents[len(l.indents)-1] != depth {
					l.errorf(p, "unindent to column %d matches no enclosing block's indentation", depth+1)
					return
				}
			}
		}
		if l.off >= len(l.src) {
			break
		}
		c := l.src[l.off]
		switch {
		case isBlank(c):
			l.off++
			continue
		case c == '#':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.off++
			}
			continue
		case c == '\\':
			if l.off+1 < len(l.src) && l.src[l.off+1] == '\n' {
				l.off++
				l.newline()
				continue
			}
			l.errorf(l.pos(), "unexpected '\\' (a backslash continues a line only right before the newline)")
			return
		case c == '\n':
			if l.nesting == 0 {
				if lineHasTokens {
					l.emit(tNewline, "", l.pos())
				}
				lineHasTokens = false
				atLineStart = true
			}
			l.newline()
			continue
		}
		lineHasTokens = true
		p := l.pos()
		switch {
		case isDigit(c) || (c == '.' && l.off+1 < len(l.src) && isDigit(l.src[l.off+1])):
			l.number(p)
		case isIdentStart(c):
			start := l.off
			for l.off < len(l.src) && isIdentChar(l.src[l.off]) {
				l.off++
			}
			word := string(l.src[start:l.off])
			if !keywords[word] {
				l.emit(tIdent, word, p)
				break
			}
			// `is not` and `not in` are one token each (one space between)
			if (word == "is" && l.hasWord(" not")) || (word == "not" && l.hasWord(" in")) {
				n := l.off + 1
				for n < len(l.src) && isIdentChar(l.src[n]) {
					n++
				}
				word = word + " " + string(l.src[l.off+1:n])
				l.off = n
			}
			l.emit(tKeyword, word, p)
		case c == '"' || c == '\'':
			l.str(p)
		default:
			op := ""
			rest := string(l.src[l.off:min(l.off+3, len(l.src))])
			for _, o := range operators {
				if strings.HasPrefix(rest, o) {
					op = o
					break
				}
			}
			if op == "" {
				r, _ := utf8.DecodeRune(l.src[l.off:])
				l.errorf(p, "unexpected character %q", r)
				return
			}
			l.off += len(op)
			switch op {
			case "(", "[", "{":
				l.nesting++
				if l.nesting > maxNesting {
					l.errorf(p, "brackets nested more than %d deep", maxNesting)
					return
				}
				l.open = append(l.open, token{kind: tOp, text: op, pos: p})
			case ")", "]", "}":
				if l.nesting > 0 {
					l.nesting--
					l.open = l.open[:len(l.open)-1]
				}
			}
			l.emit(tOp, op, p)
		}
	}
	if l.err != nil {
		return
	}
	p := l.pos()
	if n := len(l.open); n > 0 {
		// the parser reports it where it meets the end of the file
		l.unclosed = &l.open[n-1]
		l.emit(tEOF, "", p)
		return
	}
	if lineHasTokens {
		l.emit(tNewline, "", p)
	}
	for len(l.indents) > 1 {
		l.indents = l.indents[:len(l.indents)-1]
		l.emit(tDedent, "", p)
	}
	l.emit(tEOF, "", p)
}

// hasWord reports whether the source at l.off is s followed by a non
// identifier character (or the end).
func (l *lexer) hasWord(s string) bool {
	end := l.off + len(s)
	if end > len(l.src) || string(l.src[l.off:end]) != s {
		return false
	}
	return end == len(l.src) || !isIdentChar(l.src[end])
}

// number lexes a number as strtod reads it (digits, a fraction, an
// exponent), a hexadecimal integer, and an imaginary suffix j.
func (l *lexer) number(p Pos) {
	start := l.off
	s := l.src
	kind := tInt
	if s[l.off] == '0' && l.off+1 < len(s) && (s[l.off+1] == 'x' || s[l.off+1] == 'X') &&
		l.off+2 < len(s) && isHex(s[l.off+2]) {
		l.off += 2
		for l.off < len(s) && isHex(s[l.off]) {
			l.off++
		}
	} else {
		for l.off < len(s) && isDigit(s[l.off]) {
			l.off++
		}
		if l.off < len(s) && s[l.off] == '.' {
			kind = tFloat
			l.off++
			for l.off < len(s) && isDigit(s[l.off]) {
				l.off++
			}
		}
		if l.off < len(s) && (s[l.off] == 'e' || s[l.off] == 'E') {
			n := l.off + 1
			if n < len(s) && (s[n] == '+' || s[n] == '-') {
				n++
			}
			if n < len(s) && isDigit(s[n]) {
				for n < len(s) && isDigit(s[n]) {
					n++
				}
				l.off = n
				kind = tFloat
			}
		}
	}
	if l.off < len(s) && s[l.off] == 'j' {
		l.off++
		kind = tImag
	}
	l.emit(kind, string(s[start:l.off]), p)
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// str lexes a string literal: one or three quotes of either kind; a
// backslash escapes the next character; a single-quoted string ends at its
// line.
func (l *lexer) str(p Pos) {
	s := l.src
	start := l.off
	q := s[l.off]
	triple := l.off+2 < len(s) && s[l.off+1] == q && s[l.off+2] == q
	n := 1
	if triple {
		n = 3
	}
	l.off += n
	for {
		if l.off >= len(s) {
			l.errorf(p, "string literal not terminated")
			return
		}
		c := s[l.off]
		if c == q && (!triple || (l.off+2 < len(s) && s[l.off+1] == q && s[l.off+2] == q)) {
			l.off += n
			break
		}
		if c == '\n' {
			if !triple {
				l.errorf(p, "string literal not terminated before the end of the line")
				return
			}
			l.newline()
			continue
		}
		if c == '\\' && l.off+1 < len(s) {
			l.off++
			if s[l.off] == '\n' {
				l.newline()
				continue
			}
		}
		l.off++
	}
	l.emit(tString, string(s[start:l.off]), p)
}
