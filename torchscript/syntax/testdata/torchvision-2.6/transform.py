class GeneralizedRCNNTransform(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  min_size : Tuple[int]
  max_size : int
  image_mean : List[float]
  image_std : List[float]
  size_divisible : int
  fixed_size : NoneType
  _skip_resize : bool
  def forward(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    images: List[Tensor],
    targets: Optional[List[Dict[str, Tensor]]]=None) -> Tuple[__torch__.torchvision.models.detection.image_list.ImageList, Optional[List[Dict[str, Tensor]]]]:
    _0 = "images is expected to be a list of 3d tensors of shape [C, H, W], got {}"
    _1 = "Input tensors expected to have in the last two elements H and W, instead got {}"
    images0 = annotate(List[Tensor], [])
    for _2 in range(torch.len(images)):
      img = images[_2]
      _3 = torch.append(images0, img)
    if torch.__isnot__(targets, None):
      targets1 = unchecked_cast(List[Dict[str, Tensor]], targets)
      targets_copy = annotate(List[Dict[str, Tensor]], [])
      for _4 in range(torch.len(targets1)):
        t = targets1[_4]
        data = annotate(Dict[str, Tensor], {})
        _5 = torch.items(t)
        for _6 in range(torch.len(_5)):
          k, v, = _5[_6]
          torch._set_item(data, k, v)
        _7 = torch.append(targets_copy, data)
      targets0 : Optional[List[Dict[str, Tensor]]] = targets_copy
    else:
      targets0 = targets
    targets2: Optional[List[Dict[str, Tensor]]] = targets0
    for i in range(torch.len(images0)):
      image = images0[i]
      if torch.__isnot__(targets2, None):
        targets4 = unchecked_cast(List[Dict[str, Tensor]], targets2)
        target_index, targets3 = targets4[i], targets4
      else:
        target_index, targets3 = None, targets2
      if torch.ne(torch.dim(image), 3):
        _8 = torch.format(_0, torch.size(image))
        ops.prim.RaiseException(_8, "builtins.ValueError")
      else:
        pass
      image0 = (self).normalize(image, )
      _9 = (self).resize(image0, target_index, )
      image1, target_index0, = _9
      _10 = torch._set_item(images0, i, image1)
      if torch.__isnot__(targets3, None):
        targets6 = unchecked_cast(List[Dict[str, Tensor]], targets3)
        _12 = torch.__isnot__(target_index0, None)
        _11, targets5 = _12, targets6
      else:
        _11, targets5 = False, targets3
      if _11:
        targets8 = unchecked_cast(List[Dict[str, Tensor]], targets5)
        target_index1 = unchecked_cast(Dict[str, Tensor], target_index0)
        _13 = torch._set_item(targets8, i, target_index1)
        targets7 : Optional[List[Dict[str, Tensor]]] = targets8
      else:
        targets7 = targets5
      targets2 = targets7
    image_sizes = annotate(List[List[int]], [])
    for _14 in range(torch.len(images0)):
      img0 = images0[_14]
      _15 = torch.append(image_sizes, torch.slice(torch.size(img0), -2))
    size_divisible = self.size_divisible
    images1 = (self).batch_images(images0, size_divisible, )
    image_sizes_list = annotate(List[Tuple[int, int]], [])
    for _16 in range(torch.len(image_sizes)):
      image_size = image_sizes[_16]
      _17 = torch.eq(torch.len(image_size), 2)
      _18 = torch.format(_1, image_size)
      if _17:
        pass
      else:
        _19 = torch.add("AssertionError: ", _18)
        ops.prim.RaiseException(_19)
      _20 = torch.append(image_sizes_list, (image_size[0], image_size[1]))
    image_list = __torch__.torchvision.models.detection.image_list.ImageList.__new__(__torch__.torchvision.models.detection.image_list.ImageList)
    _21 = (image_list).__init__(images1, image_sizes_list, )
    return (image_list, targets2)
  def normalize(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    image: Tensor) -> Tensor:
    _22 = "Expected input images to be of floating type (in range [0, 1]), but found type {} instead"
    _23 = torch.__not__(torch.is_floating_point(image))
    if _23:
      _24 = torch.format(_22, ops.prim.dtype(image))
      ops.prim.RaiseException(_24, "builtins.TypeError")
    else:
      pass
    dtype = ops.prim.dtype(image)
    device = ops.prim.device(image)
    image_mean = self.image_mean
    mean = torch.as_tensor(image_mean, dtype=dtype, device=device)
    image_std = self.image_std
    std = torch.as_tensor(image_std, dtype=dtype, device=device)
    _25 = torch.unsqueeze(torch.slice(mean), 1)
    _26 = torch.sub(image, torch.unsqueeze(_25, 2))
    _27 = torch.unsqueeze(torch.slice(std), 1)
    _28 = torch.div(_26, torch.unsqueeze(_27, 2))
    return _28
  def resize(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    image: Tensor,
    target: Optional[Dict[str, Tensor]]=None) -> Tuple[Tensor, Optional[Dict[str, Tensor]]]:
    _29 = __torch__.torchvision.models.detection.transform._resize_image_and_masks
    _30 = __torch__.torchvision.models.detection.transform.resize_boxes
    _31 = __torch__.torchvision.models.detection.transform.resize_keypoints
    _32 = uninitialized(int)
    _33 = uninitialized(Tuple[Tensor, Optional[Dict[str, Tensor]]])
    h, w, = torch.slice(torch.size(image), -2)
    training = self.training
    if training:
      _skip_resize = self._skip_resize
      if _skip_resize:
        _36, _37, _38 = True, (image, target), _32
      else:
        min_size = self.min_size
        _39, = min_size
        _36, _37, _38 = False, _33, (self).torch_choice([_39], )
      _34, _35, size = _36, _37, _38
    else:
      min_size0 = self.min_size
      _34, _35, size = False, _33, (min_size0)[-1]
    if _34:
      _40 = _35
    else:
      max_size = self.max_size
      fixed_size = self.fixed_size
      _41 = _29(image, size, max_size, target, fixed_size, )
      image2, target0, = _41
      if torch.__is__(target0, None):
        _42 = (image2, target0)
      else:
        target1 = unchecked_cast(Dict[str, Tensor], target0)
        bbox = target1["boxes"]
        _43 = torch.slice(torch.size(image2), -2)
        bbox0 = _30(bbox, [h, w], _43, )
        torch._set_item(target1, "boxes", bbox0)
        _44 = torch.__contains__(target1, "keypoints")
        if _44:
          keypoints = target1["keypoints"]
          _45 = torch.slice(torch.size(image2), -2)
          keypoints0 = _31(keypoints, [h, w], _45, )
          torch._set_item(target1, "keypoints", keypoints0)
        else:
          pass
        _42 = (image2, target1)
      _40 = _42
    return _40
  def torch_choice(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    k: List[int]) -> int:
    _46 = torch.uniform_(torch.empty([1]), 0., float(torch.len(k)))
    index = int(torch.item(_46))
    return k[index]
  def batch_images(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    images: List[Tensor],
    size_divisible: int=32) -> Tensor:
    _47 = "This Python function is annotated to be ignored and cannot be run"
    if __torch__.torchvision._is_tracing():
      ops.prim.RaiseException(_47)
    else:
      pass
    _48 = annotate(List[List[int]], [])
    for _49 in range(torch.len(images)):
      img = images[_49]
      _50 = torch.append(_48, torch.list(torch.size(img)))
    max_size = (self).max_by_axis(_48, )
    stride = float(size_divisible)
    max_size0 = torch.list(max_size)
    _51 = torch.div(float(max_size0[1]), stride)
    _52 = int(torch.mul(torch.ceil(_51), stride))
    _53 = torch._set_item(max_size0, 1, _52)
    _54 = torch.div(float(max_size0[2]), stride)
    _55 = int(torch.mul(torch.ceil(_54), stride))
    _56 = torch._set_item(max_size0, 2, _55)
    batch_shape = torch.add([torch.len(images)], max_size0)
    batched_imgs = torch.new_full(images[0], batch_shape, 0)
    for i in range((torch.size(batched_imgs))[0]):
      img1 = images[i]
      _57 = torch.slice(torch.select(batched_imgs, 0, i), 0, None, (torch.size(img1))[0])
      _58 = torch.slice(_57, 1, None, (torch.size(img1))[1])
      _59 = torch.slice(_58, 2, None, (torch.size(img1))[2])
      _60 = torch.copy_(_59, img1)
    return batched_imgs
  def max_by_axis(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    the_list: List[List[int]]) -> List[int]:
    maxes = the_list[0]
    _61 = torch.slice(the_list, 1)
    for _62 in range(torch.len(_61)):
      sublist = _61[_62]
      _63 = [9223372036854775807, torch.len(sublist)]
      for index in range(ops.prim.min(_63)):
        item = sublist[index]
        _64 = ops.prim.max(maxes[index], item)
        _65 = torch._set_item(maxes, index, _64)
    return maxes
  def postprocess(self: __torch__.torchvision.models.detection.transform.GeneralizedRCNNTransform,
    result: List[Dict[str, Tensor]],
    image_shapes: List[Tuple[int, int]],
    original_image_sizes: List[Tuple[int, int]]) -> List[Dict[str, Tensor]]:
    _66 = __torch__.torchvision.models.detection.transform.resize_boxes
    _67 = __torch__.torchvision.models.detection.roi_heads.paste_masks_in_image
    _68 = __torch__.torchvision.models.detection.transform.resize_keypoints
    training = self.training
    if training:
      pass
    else:
      _69 = [9223372036854775807, torch.len(result), torch.len(image_shapes), torch.len(original_image_sizes)]
      for i in range(ops.prim.min(_69)):
        pred = result[i]
        im_s = image_shapes[i]
        o_im_s = original_image_sizes[i]
        boxes = pred["boxes"]
        _70, _71, = im_s
        _72 = [_70, _71]
        _73, _74, = o_im_s
        boxes0 = _66(boxes, _72, [_73, _74], )
        torch._set_item(result[i], "boxes", boxes0)
        _75 = torch.__contains__(pred, "masks")
        if _75:
          masks = pred["masks"]
          masks0 = _67(masks, boxes0, o_im_s, 1, )
          torch._set_item(result[i], "masks", masks0)
        else:
          pass
        _76 = torch.__contains__(pred, "keypoints")
        if _76:
          keypoints = pred["keypoints"]
          _77, _78, = im_s
          _79 = [_77, _78]
          _80, _81, = o_im_s
          keypoints1 = _68(keypoints, _79, [_80, _81], )
          torch._set_item(result[i], "keypoints", keypoints1)
        else:
          pass
    return result
def _resize_image_and_masks(image: Tensor,
    self_min_size: int,
    self_max_size: int,
    target: Optional[Dict[str, Tensor]]=None,
    fixed_size: Optional[Tuple[int, int]]=None) -> Tuple[Tensor, Optional[Dict[str, Tensor]]]:
  _82 = "This Python function is annotated to be ignored and cannot be run"
  _83 = __torch__.torch.nn.functional.___torch_mangle_980.interpolate
  _84 = uninitialized(float)
  _85 = uninitialized(Tensor)
  if __torch__.torchvision._is_tracing():
    ops.prim.RaiseException(_82)
    im_shape = _85
  else:
    im_shape0 = torch.tensor(torch.slice(torch.size(image), -2))
    im_shape = im_shape0
  if torch.__isnot__(fixed_size, None):
    fixed_size0 = unchecked_cast(Tuple[int, int], fixed_size)
    size0 = [(fixed_size0)[1], (fixed_size0)[0]]
    size, scale_factor, recompute_scale_factor = size0, None, None
  else:
    min_size = torch.to(torch.min(im_shape), 6)
    max_size = torch.to(torch.max(im_shape), 6)
    self_min_size_f = float(self_min_size)
    self_max_size_f = float(self_max_size)
    _86 = torch.mul(torch.reciprocal(min_size), self_min_size_f)
    _87 = torch.mul(torch.reciprocal(max_size), self_max_size_f)
    scale = torch.min(_86, _87)
    if __torch__.torchvision._is_tracing():
      ops.prim.RaiseException(_82)
      scale_factor0 = _84
    else:
      scale_factor1 = torch.item(scale)
      scale_factor0 = float(scale_factor1)
    size, scale_factor, recompute_scale_factor = None, scale_factor0, True
  _88 = _83(torch.unsqueeze(image, 0), size, scale_factor, "bilinear", False, recompute_scale_factor, False, )
  image3 = torch.select(_88, 0, 0)
  if torch.__is__(target, None):
    _89 = (image3, target)
  else:
    target2 = unchecked_cast(Dict[str, Tensor], target)
    _90 = torch.__contains__(target2, "masks")
    if _90:
      mask = target2["masks"]
      _91 = torch.unsqueeze(torch.slice(mask), 1)
      _92 = _83(torch.to(_91, 6), size, scale_factor, "nearest", None, recompute_scale_factor, False, )
      _93 = torch.select(torch.slice(_92), 1, 0)
      mask0 = torch.to(_93, 0)
      torch._set_item(target2, "masks", mask0)
    else:
      pass
    _89 = (image3, target2)
  return _89
def resize_boxes(boxes: Tensor,
    original_size: List[int],
    new_size: List[int]) -> Tensor:
  ratios = annotate(List[Tensor], [])
  _94 = [torch.len(new_size), torch.len(original_size)]
  for _95 in range(ops.prim.min(_94)):
    s = new_size[_95]
    s_orig = original_size[_95]
    _96 = torch.tensor(s, dtype=6, device=ops.prim.device(boxes))
    _97 = torch.tensor(s_orig, dtype=6, device=ops.prim.device(boxes))
    _98 = torch.append(ratios, torch.div(_96, _97))
  ratio_height, ratio_width, = ratios
  xmin, ymin, xmax, ymax, = torch.unbind(boxes, 1)
  xmin0 = torch.mul(xmin, ratio_width)
  xmax0 = torch.mul(xmax, ratio_width)
  ymin0 = torch.mul(ymin, ratio_height)
  ymax0 = torch.mul(ymax, ratio_height)
  _99 = torch.stack([xmin0, ymin0, xmax0, ymax0], 1)
  return _99
def resize_keypoints(keypoints: Tensor,
    original_size: List[int],
    new_size: List[int]) -> Tensor:
  ratios = annotate(List[Tensor], [])
  _100 = [torch.len(new_size), torch.len(original_size)]
  for _101 in range(ops.prim.min(_100)):
    s = new_size[_101]
    s_orig = original_size[_101]
    _102 = torch.tensor(s, dtype=6, device=ops.prim.device(keypoints))
    _103 = torch.tensor(s_orig, dtype=6, device=ops.prim.device(keypoints))
    _104 = torch.append(ratios, torch.div(_102, _103))
  ratio_h, ratio_w, = ratios
  resized_data = torch.clone(keypoints)
  _105 = torch.mul_(torch.select(resized_data, -1, 0), ratio_w)
  _106 = torch.mul_(torch.select(resized_data, -1, 1), ratio_h)
  return resized_data
