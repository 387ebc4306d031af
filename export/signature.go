package export

import (
	"fmt"
	"strings"
)

// InputKind says what a placeholder of an exported graph stands for.
type InputKind int

// The input kinds, the first four in the order their placeholders appear
// in a program exported from Go. CustomObj and TokenInput come from
// PyTorch's programs: a torchbind script object, and the effect token that
// orders side-effecting operators (tokens come first).
const (
	Parameter InputKind = iota
	Buffer
	ConstantTensor
	UserInput
	CustomObj
	TokenInput
)

var inputKindNames = [...]string{"PARAMETER", "BUFFER", "CONSTANT_TENSOR", "USER_INPUT", "CUSTOM_OBJ", "TOKEN"}

// String returns torch.export's spelling (PARAMETER, USER_INPUT, ...).
func (k InputKind) String() string {
	if int(k) < len(inputKindNames) {
		return inputKindNames[k]
	}
	return fmt.Sprintf("InputKind(%d)", int(k))
}

// OutputKind says what an output of an exported graph is.
type OutputKind int

// The output kinds, the first three in the order the outputs appear in a
// program exported from Go. The others come from PyTorch's programs: a
// loss (a user output of a training program), the gradients of a joint
// graph, and the effect token (tokens come first).
const (
	BufferMutation OutputKind = iota
	UserInputMutation
	UserOutput
	LossOutput
	GradientToParameter
	GradientToUserInput
	TokenOutput
)

var outputKindNames = [...]string{"BUFFER_MUTATION", "USER_INPUT_MUTATION", "USER_OUTPUT", "LOSS_OUTPUT", "GRADIENT_TO_PARAMETER", "GRADIENT_TO_USER_INPUT", "TOKEN"}

// String returns torch.export's spelling (USER_OUTPUT, BUFFER_MUTATION, ...).
func (k OutputKind) String() string {
	if int(k) < len(outputKindNames) {
		return outputKindNames[k]
	}
	return fmt.Sprintf("OutputKind(%d)", int(k))
}

// InputSpec is one placeholder of the graph.
type InputSpec struct {
	Kind InputKind
	// Name is the placeholder's name (p_fc_weight, x).
	Name string
	// Target is the state entry for parameters, buffers and constants
	// (fc.weight, _tensor_constant0); empty for user inputs.
	Target string
	// Persistent tells, for a buffer, whether it is in the state dict.
	Persistent bool
	// Value is, for a USER_INPUT that export specialized (PyTorch's
	// ConstantArgument: an int, float, bool, string or None input), its
	// value, which the placeholder receives; nil otherwise. A program
	// exported from Go has no placeholder for such inputs.
	Value any
}

// OutputSpec is one element of the graph's output.
type OutputSpec struct {
	Kind OutputKind
	// Name is the node computing it.
	Name string
	// Target is the mutated buffer (its state name) or user input (its
	// placeholder name), or the parameter or user input of a gradient;
	// empty for user outputs.
	Target string
	// Value is, for a user output that is a constant (PyTorch's
	// ConstantArgument), its value; Name is then "".
	Value any
}

// Signature is the graph signature: what every input and output is.
type Signature struct {
	Inputs  []InputSpec
	Outputs []OutputSpec
}

// UserInputs returns the names of the user inputs' placeholders.
func (s *Signature) UserInputs() []string {
	var out []string
	for _, in := range s.Inputs {
		if in.Kind == UserInput {
			out = append(out, in.Name)
		}
	}
	return out
}

// BuffersToMutate maps each buffer-mutation output to the buffer it writes
// (torch.export's buffers_to_mutate).
func (s *Signature) BuffersToMutate() map[string]string {
	out := map[string]string{}
	for _, o := range s.Outputs {
		if o.Kind == BufferMutation {
			out[o.Name] = o.Target
		}
	}
	return out
}

// String lists the inputs and outputs, one per line.
func (s *Signature) String() string {
	var b strings.Builder
	b.WriteString("    # inputs\n")
	for _, in := range s.Inputs {
		fmt.Fprintf(&b, "    %s: %s", in.Name, in.Kind)
		if in.Target != "" {
			fmt.Fprintf(&b, " target='%s'", in.Target)
		}
		if in.Kind == Buffer {
			fmt.Fprintf(&b, " persistent=%s", pyBool(in.Persistent))
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n    # outputs\n")
	for _, o := range s.Outputs {
		fmt.Fprintf(&b, "    %s: %s", o.Name, o.Kind)
		if o.Target != "" {
			fmt.Fprintf(&b, " target='%s'", o.Target)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func pyBool(v bool) string {
	if v {
		return "True"
	}
	return "False"
}

// ModuleCall is one entry of the module call graph: a module whose Forward
// ran during export, by its dotted path ("" for the root) and type, with
// the graph values it took and returned.
type ModuleCall struct {
	FQN     string
	Type    string
	Inputs  []string
	Outputs []string
}

// rank orders input kinds as torch.export places them: tokens, then the
// state (parameters, buffers, constants and custom objects), then the user
// inputs.
func (k InputKind) rank() int {
	switch k {
	case TokenInput:
		return 0
	case Parameter:
		return 1
	case Buffer:
		return 2
	case ConstantTensor, CustomObj:
		return 3
	}
	return 4
}

// rank orders output kinds as torch.export places them: tokens, buffer
// mutations, user input mutations, user outputs (and losses), gradients.
func (k OutputKind) rank() int {
	switch k {
	case TokenOutput:
		return 0
	case BufferMutation:
		return 1
	case UserInputMutation:
		return 2
	case UserOutput, LossOutput:
		return 3
	}
	return 4
}
