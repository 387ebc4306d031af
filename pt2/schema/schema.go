package schema

// SchemaVersionMajor and SchemaVersionMinor are the newest schema version
// this package knows every field of (PyTorch 2.14 writes 8.20). Decode
// reads any 8.x file; Encode writes the version the program carries.
const (
	SchemaVersionMajor = 8
	SchemaVersionMinor = 20
	// TreespecVersion is the version of the pytree spec strings
	// (ModuleCallSignature.InSpec/OutSpec) of schema 8.
	TreespecVersion = 1
	// LegacyMinor is the newest minor version Encode writes in the
	// PyTorch ≤ 2.7 style (see Style).
	LegacyMinor = 2
)

// ScalarType is a tensor element type (schema.py's ScalarType; c10's order
// for the first fourteen).
type ScalarType int

// The scalar types of schema 8.20.
const (
	ScalarTypeUnknown        ScalarType = 0
	ScalarTypeByte           ScalarType = 1 // uint8
	ScalarTypeChar           ScalarType = 2 // int8
	ScalarTypeShort          ScalarType = 3 // int16
	ScalarTypeInt            ScalarType = 4 // int32
	ScalarTypeLong           ScalarType = 5 // int64
	ScalarTypeHalf           ScalarType = 6
	ScalarTypeFloat          ScalarType = 7
	ScalarTypeDouble         ScalarType = 8
	ScalarTypeComplexHalf    ScalarType = 9
	ScalarTypeComplexFloat   ScalarType = 10
	ScalarTypeComplexDouble  ScalarType = 11
	ScalarTypeBool           ScalarType = 12
	ScalarTypeBFloat16       ScalarType = 13
	ScalarTypeUInt16         ScalarType = 28
	ScalarTypeFloat8E4M3FN   ScalarType = 29
	ScalarTypeFloat8E5M2     ScalarType = 30
	ScalarTypeFloat8E4M3FNUZ ScalarType = 31
	ScalarTypeFloat8E5M2FNUZ ScalarType = 32
	ScalarTypeFloat8E8M0FNU  ScalarType = 33
	ScalarTypeUInt32         ScalarType = 34
	ScalarTypeUInt64         ScalarType = 35
)

var scalarTypeNames = map[ScalarType]string{
	0: "UNKNOWN", 1: "BYTE", 2: "CHAR", 3: "SHORT", 4: "INT", 5: "LONG", 6: "HALF",
	7: "FLOAT", 8: "DOUBLE", 9: "COMPLEXHALF", 10: "COMPLEXFLOAT", 11: "COMPLEXDOUBLE",
	12: "BOOL", 13: "BFLOAT16", 28: "UINT16", 29: "FLOAT8E4M3FN", 30: "FLOAT8E5M2",
	31: "FLOAT8E4M3FNUZ", 32: "FLOAT8E5M2FNUZ", 33: "FLOAT8E8M0FNU", 34: "UINT32", 35: "UINT64",
}

// String returns schema.py's member name (FLOAT, LONG, ...).
func (t ScalarType) String() string { return enumString(scalarTypeNames, int(t), "ScalarType") }

func (t ScalarType) enumValid() bool { _, ok := scalarTypeNames[t]; return ok }

// Layout is a tensor layout.
type Layout int

// The layouts of schema 8.
const (
	LayoutUnknown   Layout = 0
	LayoutSparseCoo Layout = 1
	LayoutSparseCsr Layout = 2
	LayoutSparseCsc Layout = 3
	LayoutSparseBsr Layout = 4
	LayoutSparseBsc Layout = 5
	LayoutMkldnn    Layout = 6
	LayoutStrided   Layout = 7
)

var layoutNames = map[Layout]string{0: "Unknown", 1: "SparseCoo", 2: "SparseCsr", 3: "SparseCsc",
	4: "SparseBsr", 5: "SparseBsc", 6: "_mkldnn", 7: "Strided"}

// String returns schema.py's member name.
func (l Layout) String() string { return enumString(layoutNames, int(l), "Layout") }

func (l Layout) enumValid() bool { _, ok := layoutNames[l]; return ok }

// MemoryFormat is a tensor memory format.
type MemoryFormat int

// The memory formats of schema 8.
const (
	MemoryFormatUnknown          MemoryFormat = 0
	MemoryFormatContiguousFormat MemoryFormat = 1
	MemoryFormatChannelsLast     MemoryFormat = 2
	MemoryFormatChannelsLast3d   MemoryFormat = 3
	MemoryFormatPreserveFormat   MemoryFormat = 4
)

var memoryFormatNames = map[MemoryFormat]string{0: "Unknown", 1: "ContiguousFormat",
	2: "ChannelsLast", 3: "ChannelsLast3d", 4: "PreserveFormat"}

// String returns schema.py's member name.
func (m MemoryFormat) String() string { return enumString(memoryFormatNames, int(m), "MemoryFormat") }

func (m MemoryFormat) enumValid() bool { _, ok := memoryFormatNames[m]; return ok }

// ArgumentKind says how a node input was passed (schema ≥ 8.3).
type ArgumentKind int

// The argument kinds.
const (
	ArgumentKindUnknown    ArgumentKind = 0
	ArgumentKindPositional ArgumentKind = 1
	ArgumentKindKeyword    ArgumentKind = 2
)

var argumentKindNames = map[ArgumentKind]string{0: "UNKNOWN", 1: "POSITIONAL", 2: "KEYWORD"}

// String returns schema.py's member name.
func (k ArgumentKind) String() string { return enumString(argumentKindNames, int(k), "ArgumentKind") }

func (k ArgumentKind) enumValid() bool { _, ok := argumentKindNames[k]; return ok }

// Struct tags: `json:"name"` is the field's JSON key; `pt2:"..."` holds
// options:
//
//	omitnone  the field's Python default is None: PyTorch ≤ 2.7 omits it when
//	          it is None (a nil pointer or a nil slice); ≥ 2.8 writes null.
//	new       the field is not in schema 8.2 (PyTorch 2.6): the legacy style
//	          omits it at its zero value and refuses to write another value.
//
// A union (a type with the isUnion method) has only pointer, slice or map
// fields; exactly one is set (for slices and maps: non-nil).

// Device is a tensor's device ("cpu", "cuda", ...).
type Device struct {
	Type  string `json:"type"`
	Index *int64 `json:"index" pt2:"omitnone"`
}

// SymExprHint is the example value of a symbolic expression (a union).
type SymExprHint struct {
	AsInt   *int64   `json:"as_int"`
	AsBool  *bool    `json:"as_bool"`
	AsFloat *float64 `json:"as_float"`
}

// SymExpr is a sympy expression as text (for example "s0 + s1" or
// "Symbol('s6', positive=True, integer=True)") with an optional hint.
type SymExpr struct {
	ExprStr string       `json:"expr_str"`
	Hint    *SymExprHint `json:"hint" pt2:"omitnone"`
}

// SymInt is an int that may be symbolic (a union).
type SymInt struct {
	AsExpr *SymExpr `json:"as_expr"`
	AsInt  *int64   `json:"as_int"`
}

// SymFloat is a float that may be symbolic (a union).
type SymFloat struct {
	AsExpr  *SymExpr `json:"as_expr"`
	AsFloat *float64 `json:"as_float"`
}

// SymBool is a bool that may be symbolic (a union).
type SymBool struct {
	AsExpr *SymExpr `json:"as_expr"`
	AsBool *bool    `json:"as_bool"`
}

// TensorMeta is a tensor value's metadata.
type TensorMeta struct {
	Dtype         ScalarType `json:"dtype"`
	Sizes         []SymInt   `json:"sizes"`
	RequiresGrad  bool       `json:"requires_grad"`
	Device        Device     `json:"device"`
	Strides       []SymInt   `json:"strides"`
	StorageOffset SymInt     `json:"storage_offset"`
	Layout        Layout     `json:"layout"`
}

// SymIntArgument is a SymInt node argument: a name of a sym_int value, or a
// literal int inside a mixed list (a union).
type SymIntArgument struct {
	AsName *string `json:"as_name"`
	AsInt  *int64  `json:"as_int"`
}

// SymFloatArgument is a SymFloat node argument (a union).
type SymFloatArgument struct {
	AsName  *string  `json:"as_name"`
	AsFloat *float64 `json:"as_float"`
}

// SymBoolArgument is a SymBool node argument (a union).
type SymBoolArgument struct {
	AsName *string `json:"as_name"`
	AsBool *bool   `json:"as_bool"`
}

// TensorArgument names a tensor value of the graph.
type TensorArgument struct {
	Name string `json:"name"`
}

// TokenArgument names an effect token.
type TokenArgument struct {
	Name string `json:"name"`
}

// OptionalTensorArgument is an element of a Tensor?[] (a union; AsNone is
// true for None).
type OptionalTensorArgument struct {
	AsTensor *TensorArgument `json:"as_tensor"`
	AsNone   *bool           `json:"as_none"`
}

// GraphArgument is a subgraph argument of a higher-order operator (cond's
// branches, map's body, ...), with the submodule's name.
type GraphArgument struct {
	Name  string `json:"name"`
	Graph *Graph `json:"graph"`
}

// CustomObjArgument names a script object (torchbind) value.
type CustomObjArgument struct {
	Name     string `json:"name"`
	ClassFqn string `json:"class_fqn"`
}

// ComplexValue is a complex scalar (schema ≥ 8.3).
type ComplexValue struct {
	Real float64 `json:"real"`
	Imag float64 `json:"imag"`
}

// Argument is a node argument or output (a union). AsNone is true for None.
type Argument struct {
	AsNone             *bool                    `json:"as_none"`
	AsTensor           *TensorArgument          `json:"as_tensor"`
	AsTensors          []TensorArgument         `json:"as_tensors"`
	AsInt              *int64                   `json:"as_int"`
	AsInts             []int64                  `json:"as_ints"`
	AsFloat            *float64                 `json:"as_float"`
	AsFloats           []float64                `json:"as_floats"`
	AsString           *string                  `json:"as_string"`
	AsStrings          []string                 `json:"as_strings"`
	AsSymInt           *SymIntArgument          `json:"as_sym_int"`
	AsSymInts          []SymIntArgument         `json:"as_sym_ints"`
	AsScalarType       *ScalarType              `json:"as_scalar_type"`
	AsMemoryFormat     *MemoryFormat            `json:"as_memory_format"`
	AsLayout           *Layout                  `json:"as_layout"`
	AsDevice           *Device                  `json:"as_device"`
	AsBool             *bool                    `json:"as_bool"`
	AsBools            []bool                   `json:"as_bools"`
	AsSymBool          *SymBoolArgument         `json:"as_sym_bool"`
	AsSymBools         []SymBoolArgument        `json:"as_sym_bools"`
	AsGraph            *GraphArgument           `json:"as_graph"`
	AsOptionalTensors  []OptionalTensorArgument `json:"as_optional_tensors"`
	AsCustomObj        *CustomObjArgument       `json:"as_custom_obj"`
	AsOperator         *string                  `json:"as_operator"`
	AsSymFloat         *SymFloatArgument        `json:"as_sym_float"`
	AsSymFloats        []SymFloatArgument       `json:"as_sym_floats"`
	AsOptionalTensor   *OptionalTensorArgument  `json:"as_optional_tensor" pt2:"new"`
	AsComplex          *ComplexValue            `json:"as_complex" pt2:"new"`
	AsNestedTensors    [][]TensorArgument       `json:"as_nested_tensors" pt2:"new"`
	AsIntLists         [][]int64                `json:"as_int_lists" pt2:"new"`
	AsStringToArgument map[string]Argument      `json:"as_string_to_argument" pt2:"new"`
	AsFloatLists       [][]float64              `json:"as_float_lists" pt2:"new"`
}

// NamedArgument is a node input with the name of its operator-schema
// parameter.
type NamedArgument struct {
	Name string        `json:"name"`
	Arg  Argument      `json:"arg"`
	Kind *ArgumentKind `json:"kind" pt2:"omitnone,new"`
}

// Node is a call_function node: the operator's qualified name
// ("torch.ops.aten.add.Tensor", "torch.ops.higher_order.cond",
// "_operator.getitem", ...), its inputs and outputs, and metadata
// (stack_trace, nn_module_stack, source_fn_stack, torch_fn, custom, ...).
type Node struct {
	Target                  string            `json:"target"`
	Inputs                  []NamedArgument   `json:"inputs"`
	Outputs                 []Argument        `json:"outputs"`
	Metadata                map[string]string `json:"metadata"`
	IsHopSingleTensorReturn *bool             `json:"is_hop_single_tensor_return" pt2:"omitnone,new"`
	Name                    *string           `json:"name" pt2:"omitnone,new"`
}

// Graph is a graph: placeholders (Inputs), nodes, outputs, and the metadata
// of every value by name.
type Graph struct {
	Inputs               []Argument                   `json:"inputs"`
	Outputs              []Argument                   `json:"outputs"`
	Nodes                []Node                       `json:"nodes"`
	TensorValues         map[string]TensorMeta        `json:"tensor_values"`
	SymIntValues         map[string]SymInt            `json:"sym_int_values"`
	SymBoolValues        map[string]SymBool           `json:"sym_bool_values"`
	IsSingleTensorReturn bool                         `json:"is_single_tensor_return"`
	CustomObjValues      map[string]CustomObjArgument `json:"custom_obj_values"`
	SymFloatValues       map[string]SymFloat          `json:"sym_float_values"`
}

// UserInputSpec is a user input (a tensor, a SymInt, or a constant).
type UserInputSpec struct {
	Arg Argument `json:"arg"`
}

// ConstantValue is a constant input's value (a union).
type ConstantValue struct {
	AsNone   *bool    `json:"as_none"`
	AsInt    *int64   `json:"as_int"`
	AsFloat  *float64 `json:"as_float"`
	AsString *string  `json:"as_string"`
	AsBool   *bool    `json:"as_bool"`
}

// InputToConstantInputSpec is an input that export specialized to a
// constant.
type InputToConstantInputSpec struct {
	Name  string        `json:"name"`
	Value ConstantValue `json:"value"`
}

// InputToParameterSpec is a lifted parameter.
type InputToParameterSpec struct {
	Arg           TensorArgument `json:"arg"`
	ParameterName string         `json:"parameter_name"`
}

// InputToBufferSpec is a lifted buffer.
type InputToBufferSpec struct {
	Arg        TensorArgument `json:"arg"`
	BufferName string         `json:"buffer_name"`
	Persistent bool           `json:"persistent"`
}

// InputToTensorConstantSpec is a lifted tensor constant.
type InputToTensorConstantSpec struct {
	Arg                TensorArgument `json:"arg"`
	TensorConstantName string         `json:"tensor_constant_name"`
}

// InputToCustomObjSpec is a lifted script object.
type InputToCustomObjSpec struct {
	Arg           CustomObjArgument `json:"arg"`
	CustomObjName string            `json:"custom_obj_name"`
}

// InputTokenSpec is an effect token input.
type InputTokenSpec struct {
	Arg TokenArgument `json:"arg"`
}

// InputSpec is one graph input's role (a union).
type InputSpec struct {
	UserInput      *UserInputSpec             `json:"user_input"`
	Parameter      *InputToParameterSpec      `json:"parameter"`
	Buffer         *InputToBufferSpec         `json:"buffer"`
	TensorConstant *InputToTensorConstantSpec `json:"tensor_constant"`
	CustomObj      *InputToCustomObjSpec      `json:"custom_obj"`
	Token          *InputTokenSpec            `json:"token"`
	ConstantInput  *InputToConstantInputSpec  `json:"constant_input"`
}

// UserOutputSpec is a user output.
type UserOutputSpec struct {
	Arg Argument `json:"arg"`
}

// LossOutputSpec is the loss output of a joint graph.
type LossOutputSpec struct {
	Arg TensorArgument `json:"arg"`
}

// BufferMutationSpec is the new value of a mutated buffer.
type BufferMutationSpec struct {
	Arg        TensorArgument `json:"arg"`
	BufferName string         `json:"buffer_name"`
}

// ParameterMutationSpec is the new value of a mutated parameter (schema ≥ 8.3).
type ParameterMutationSpec struct {
	Arg           TensorArgument `json:"arg"`
	ParameterName string         `json:"parameter_name"`
}

// GradientToParameterSpec is a parameter's gradient in a joint graph.
type GradientToParameterSpec struct {
	Arg           TensorArgument `json:"arg"`
	ParameterName string         `json:"parameter_name"`
}

// GradientToUserInputSpec is a user input's gradient in a joint graph.
type GradientToUserInputSpec struct {
	Arg           TensorArgument `json:"arg"`
	UserInputName string         `json:"user_input_name"`
}

// UserInputMutationSpec is the new value of a user input mutated in place.
type UserInputMutationSpec struct {
	Arg           TensorArgument `json:"arg"`
	UserInputName string         `json:"user_input_name"`
}

// OutputTokenSpec is an effect token output.
type OutputTokenSpec struct {
	Arg TokenArgument `json:"arg"`
}

// OutputSpec is one graph output's role (a union).
type OutputSpec struct {
	UserOutput          *UserOutputSpec          `json:"user_output"`
	LossOutput          *LossOutputSpec          `json:"loss_output"`
	BufferMutation      *BufferMutationSpec      `json:"buffer_mutation"`
	GradientToParameter *GradientToParameterSpec `json:"gradient_to_parameter"`
	GradientToUserInput *GradientToUserInputSpec `json:"gradient_to_user_input"`
	UserInputMutation   *UserInputMutationSpec   `json:"user_input_mutation"`
	Token               *OutputTokenSpec         `json:"token"`
	ParameterMutation   *ParameterMutationSpec   `json:"parameter_mutation" pt2:"new"`
}

// GraphSignature is the role of every graph input and output, in order.
type GraphSignature struct {
	InputSpecs  []InputSpec  `json:"input_specs"`
	OutputSpecs []OutputSpec `json:"output_specs"`
}

// RangeConstraint is a symbol's value range; nil is unbounded.
type RangeConstraint struct {
	MinVal *int64 `json:"min_val"`
	MaxVal *int64 `json:"max_val"`
}

// ModuleCallSignature is the calling convention of a module call: its
// inputs and outputs and their pytree specs (TreeSpec strings, version
// TreespecVersion). ForwardArgNames nil is None; non-nil empty is [].
type ModuleCallSignature struct {
	Inputs          []Argument `json:"inputs"`
	Outputs         []Argument `json:"outputs"`
	InSpec          string     `json:"in_spec"`
	OutSpec         string     `json:"out_spec"`
	ForwardArgNames []string   `json:"forward_arg_names" pt2:"omitnone"`
}

// ModuleCallEntry is one module of the module call graph, by dotted name
// ("" is the root).
type ModuleCallEntry struct {
	Fqn       string               `json:"fqn"`
	Signature *ModuleCallSignature `json:"signature" pt2:"omitnone"`
}

// NamedTupleDef is the field names of a namedtuple type used in a TreeSpec.
type NamedTupleDef struct {
	FieldNames []string `json:"field_names"`
}

// GraphModule is the top graph, its signature and module call graph.
type GraphModule struct {
	Graph                    Graph                    `json:"graph"`
	Signature                GraphSignature           `json:"signature"`
	ModuleCallGraph          []ModuleCallEntry        `json:"module_call_graph"`
	Metadata                 map[string]string        `json:"metadata"`
	TreespecNamedtupleFields map[string]NamedTupleDef `json:"treespec_namedtuple_fields" pt2:"new"`
}

// SchemaVersion is a schema version: the major is bumped for breaking
// changes, the minor for compatible ones.
type SchemaVersion struct {
	Major int64 `json:"major"`
	Minor int64 `json:"minor"`
}

// ExportedProgram is torch.export's serialized program: the
// serialized_exported_program.json of a ≤ 2.7 file, models/NAME.json of a
// PT2 archive.
type ExportedProgram struct {
	GraphModule      GraphModule                `json:"graph_module"`
	OpsetVersion     map[string]int64           `json:"opset_version"`
	RangeConstraints map[string]RangeConstraint `json:"range_constraints"`
	SchemaVersion    SchemaVersion              `json:"schema_version"`
	Verifiers        []string                   `json:"verifiers"`
	TorchVersion     string                     `json:"torch_version"` // "<=2.4" when absent
	GuardsCode       []string                   `json:"guards_code" pt2:"new"`
}

func (p *ExportedProgram) setDefaults() { p.TorchVersion = "<=2.4" }

// PayloadMeta describes one weight or constant of a PT2 archive: the record
// it is stored in (under data/weights/ or data/constants/), whether it is a
// parameter, whether the record is a pickle (custom objects and tensor
// subclasses) rather than raw storage bytes, and the tensor's metadata (nil
// for custom objects).
type PayloadMeta struct {
	PathName   string      `json:"path_name"`
	IsParam    bool        `json:"is_param"`
	UsePickle  bool        `json:"use_pickle"`
	TensorMeta *TensorMeta `json:"tensor_meta"`
}

// PayloadConfig is a PT2 archive's model_weights_config.json or
// model_constants_config.json: payload metadata by fully qualified name.
type PayloadConfig struct {
	Config map[string]PayloadMeta `json:"config"`
}

// Program and Model are container types of earlier 8.x schemas (8.7 has
// them; 8.20 does not): a program's methods, and a packaged model's paths
// and delegates. Nothing in a .pt2 file uses them; they are here so that
// every 8.x type has a Go form.
type Program struct {
	Methods map[string]ExportedProgram `json:"methods"`
}

// Model is a packaged model of earlier 8.x schemas (see Program).
type Model struct {
	Name                string             `json:"name"`
	TensorPaths         map[string]string  `json:"tensorPaths"`
	Program             Program            `json:"program"`
	Delegates           map[string]Program `json:"delegates"`
	DeviceAllocationMap map[string]string  `json:"deviceAllocationMap"`
	ConstantPaths       map[string]string  `json:"constantPaths"`
}

// AOTInductorModelPickleData is what AOTInductor's publishing pipeline
// passes to its predictor.
type AOTInductorModelPickleData struct {
	LibraryBasename          string   `json:"library_basename"`
	InputNames               []string `json:"input_names"`
	OutputNames              []string `json:"output_names"`
	FloatingPointInputDtype  *int64   `json:"floating_point_input_dtype" pt2:"omitnone"`
	FloatingPointOutputDtype *int64   `json:"floating_point_output_dtype" pt2:"omitnone"`
	AotInductorModelIsCpu    *bool    `json:"aot_inductor_model_is_cpu" pt2:"omitnone"`
}

// ExternKernelNode is a node AOTInductor calls as an extern kernel.
type ExternKernelNode struct {
	Name string `json:"name"`
	Node Node   `json:"node"`
}

// ExternKernelNodes is a list of ExternKernelNode.
type ExternKernelNodes struct {
	Nodes []ExternKernelNode `json:"nodes"`
}

func (SymExprHint) isUnion()            {}
func (SymInt) isUnion()                 {}
func (SymFloat) isUnion()               {}
func (SymBool) isUnion()                {}
func (SymIntArgument) isUnion()         {}
func (SymFloatArgument) isUnion()       {}
func (SymBoolArgument) isUnion()        {}
func (OptionalTensorArgument) isUnion() {}
func (Argument) isUnion()               {}
func (ConstantValue) isUnion()          {}
func (InputSpec) isUnion()              {}
func (OutputSpec) isUnion()             {}
