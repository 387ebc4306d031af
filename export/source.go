package export

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// sourceLine is where a node came from: the innermost frame of its
// stack_trace, and the text of that source line ("" when unreadable).
type sourceLine struct {
	file string
	line int
	fn   string
	code string
}

// summary is torch.fx's summary of a stack trace:
// "File: path:line in func, code: source line".
func (s sourceLine) summary() string {
	return fmt.Sprintf("File: %s:%d in %s, code: %s", s.file, s.line, s.fn, s.code)
}

// pyFrame is a frame of a Python traceback, as PyTorch records a node's
// stack_trace (programs loaded from .pt2 files).
var pyFrame = regexp.MustCompile(`^File "(.+)", line (\d+), in (.+)$`)

// goFrame is a frame of gofx's stack_trace: "file:line in pkg.Func".
var goFrame = regexp.MustCompile(`^(.+):(\d+) in (.+)$`)

// parseStackTrace returns the innermost frame of a stack trace: the last
// "File ..., line N, in f" of a Python traceback followed by its code line
// (torch.fx's _parse_stack_trace), or the last line of gofx's Go frames,
// whose code is read from the Go source file.
func parseStackTrace(st string) (sourceLine, bool) {
	lines := strings.Split(strings.TrimSpace(st), "\n")
	for i := len(lines) - 2; i >= 0; i-- {
		if m := pyFrame.FindStringSubmatch(strings.TrimSpace(lines[i])); m != nil {
			n, _ := strconv.Atoi(m[2])
			return sourceLine{file: m[1], line: n, fn: m[3], code: strings.TrimSpace(lines[i+1])}, true
		}
	}
	last := strings.TrimSpace(lines[len(lines)-1])
	m := goFrame.FindStringSubmatch(last)
	if m == nil {
		return sourceLine{}, false
	}
	n, _ := strconv.Atoi(m[2])
	fn := m[3]
	// "models.(*Net).Forward" -> "(*Net).Forward": the function as the
	// code names it, as Python's frame names it.
	if i := strings.IndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	return sourceLine{file: m[1], line: n, fn: fn, code: goSourceLine(m[1], n)}, true
}

// relative writes a Go file's path relative to the working directory wd
// when the file is under it (as Python prints the path a script was run
// by), absolute otherwise.
func relative(file, wd string) string {
	if wd == "" || !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

// sources caches the lines of the Go files stack traces name.
var sources struct {
	sync.Mutex
	files map[string][]string
}

// maxSourceBytes bounds the size of a source file read for its lines.
const maxSourceBytes = 4 << 20

// goSourceLine returns line n of a Go source file, trimmed, or "" when the
// file cannot be read (a program printed on another machine).
func goSourceLine(file string, n int) string {
	sources.Lock()
	defer sources.Unlock()
	lines, ok := sources.files[file]
	if !ok {
		lines = readLines(file)
		if sources.files == nil {
			sources.files = map[string][]string{}
		}
		sources.files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

func readLines(file string) []string {
	if !strings.HasSuffix(file, ".go") {
		return nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > maxSourceBytes {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxSourceBytes)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// codeWithSources is the graph's Python code (graph.CodeWith) with
// torch.fx's stack-trace summaries: before the first node of each new
// stack trace a "# File: path:line in func, code: source" comment (after
// a blank line), and "# No stacktrace found for following nodes" when the
// nodes that follow have none.
// sourceTrace is the stack trace a node's code is printed under: its
// own, or for a get_attr node without one that only higher-order calls
// read (true_graph_0 = self.true_graph_0), its first user's, as
// torch.export prints the graph attributes under the cond's source line.
func sourceTrace(n *node.Node) string {
	st, _ := node.StackTrace.Get(&n.Meta)
	if st != "" || n.Op() != node.GetAttr || n.NumUsers() == 0 {
		return st
	}
	users := n.Users()
	for _, u := range users {
		if !graph.IsHigherOrder(u) {
			return ""
		}
	}
	st, _ = node.StackTrace.Get(&users[0].Meta)
	return st
}

func codeWithSources(g *graph.Graph, o graph.CodeOptions) string {
	code := strings.TrimRight(g.CodeWith(o), "\n")
	lines := strings.Split(code, "\n")
	out := make([]string, 0, len(lines)+8)
	out = append(out, lines[0]) // def forward(...):
	body := lines[1:]
	i := 0
	prev := ""
	wd, _ := os.Getwd()
	for n := range g.Nodes() {
		count := 1
		switch n.Op() {
		case node.Placeholder:
			if strings.TrimLeft(n.Target().String(), "*") == n.Name() {
				count = 0
			}
		case node.Output:
		default:
			st := sourceTrace(n)
			var comment string
			switch {
			case st != "" && st != prev:
				prev = st
				s, _ := parseStackTrace(st)
				summary := ""
				if s.file != "" {
					if strings.HasSuffix(s.file, ".go") {
						s.file = relative(s.file, wd)
					}
					summary = s.summary()
				}
				comment = "     # " + summary
			case st == "" && prev != "":
				prev = ""
				comment = "    # No stacktrace found for following nodes"
			}
			if comment != "" {
				if len(out) > 1 {
					out = append(out, "    ")
				}
				out = append(out, comment)
			}
		}
		if i+count > len(body) {
			break
		}
		out = append(out, body[i:i+count]...)
		i += count
	}
	out = append(out, body[i:]...)
	return strings.Join(out, "\n") + "\n"
}
