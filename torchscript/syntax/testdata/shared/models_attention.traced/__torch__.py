class Attention(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  ln1 : __torch__.torch.nn.modules.normalization.LayerNorm
  qkv : __torch__.torch.nn.modules.linear.___torch_mangle_16.Linear
  proj : __torch__.torch.nn.modules.linear.___torch_mangle_17.Linear
  ln2 : __torch__.torch.nn.modules.normalization.___torch_mangle_18.LayerNorm
  fc1 : __torch__.torch.nn.modules.linear.___torch_mangle_19.Linear
  fc2 : __torch__.torch.nn.modules.linear.___torch_mangle_20.Linear
  def forward(self: __torch__.Attention,
    x: Tensor) -> Tensor:
    fc2 = self.fc2
    fc1 = self.fc1
    ln2 = self.ln2
    proj = self.proj
    qkv = self.qkv
    ln1 = self.ln1
    B = ops.prim.NumToTensor(torch.size(x, 0))
    _0 = int(B)
    _1 = int(B)
    _2 = int(B)
    _3 = int(B)
    T = ops.prim.NumToTensor(torch.size(x, 1))
    _4 = int(T)
    _5 = int(T)
    _6 = int(T)
    _7 = int(T)
    _8 = torch.split((qkv).forward((ln1).forward(x, ), ), 32, -1)
    q, k, v, = _8
    q0 = torch.transpose(torch.reshape(q, [_3, _7, 4, 8]), 1, 2)
    k0 = torch.transpose(torch.reshape(k, [_2, _6, 4, 8]), 1, 2)
    v0 = torch.transpose(torch.reshape(v, [_1, _5, 4, 8]), 1, 2)
    _9 = torch.matmul(q0, torch.transpose(k0, -2, -1))
    att = torch.softmax(torch.div(_9, CONSTANTS.c0), -1)
    _10 = torch.transpose(torch.matmul(att, v0), 1, 2)
    input = torch.reshape(_10, [_0, _4, 32])
    input0 = torch.add(x, (proj).forward(input, ))
    _11 = (fc1).forward((ln2).forward(input0, ), )
    input1 = torch.gelu(_11)
    _12 = torch.add(input0, (fc2).forward(input1, ))
    return _12
