"""The graders' own sentences in Chinese, for ``minigpt check --lang zh``.

The graders write English; ``translate`` first translates the words every report shares (``SHARED``: "not
yet", "expected", "got", the reader's line), then applies the graders' sentences (``TABLE``). An entry is an
English sentence and its Chinese: written as a template, ``{}`` standing for what the grader filled in (a
number, a shape, the reader's function name), which passes through as ``{0}``, ``{1}``... in the Chinese;
or a compiled regex, its groups passing through the same way. Entries apply in order, so a long sentence
comes before the short phrases it contains. A template that ends with ``{}`` takes the rest of the line.
Code names, numbers and formulas stay as they are; the terms are those of docs/zh/glossary.md.
"""

from __future__ import annotations

import re

NUMBER = r"(-?\d[\d.]*(?:e[+-]?\d+)?)"  # a number a grader printed, e.g. 4 or 1.0e-06

# the words every report shares (the numbers and code stay), translated first
SHARED = [
    (re.compile(r"  parameter names: expected the lesson's (\d+) names"), r"  参数名：应该是课上的 \1 个名字"),
    ("\n  missing  ", "\n  缺少     "),
    ("\n  extra    ", "\n  多出     "),
    ("use the lesson's names, so that the library's weights load into your model",
     "用课上的名字，库里的权重才能装进你的模型"),
    ("after loss.backward(), these parameters have no gradient (None or all zeros): ",
     "loss.backward() 之后，这些参数没有梯度（None 或全是 0）："),
    ("build every step from Tensor ops, so that backward reaches them", "每一步都用 Tensor 的运算搭出来，反向传播才能走到它们"),
    (": not yet", "：还没通过"),
    (": passed", "：通过"),
    (": every check passed", "：全部通过"),
    ("\n  expected ", "\n  期望     "),
    ("\n    expected ", "\n    期望     "),
    ("\n  got      ", "\n  得到     "),
    ("\n    got      ", "\n    得到     "),
    ("\n    expected\n", "\n    期望\n"),
    ("\n    got\n", "\n    得到\n"),
    ("it matches a known mistake: ", "和一个常见错误吻合："),
    ("the largest difference", "差得最多"),
    ("first 6 numbers", "前 6 个数"),
    (re.compile(r"\(line (\d+) of ([\w.]+\.py): "), r"（\2 第 \1 行：", ")", "）"),
]


# the one place the reader's function name is not known
NAMES = [
    (re.compile(r"^cross_entropy \(its gradient\)(?=：)", re.M), "cross_entropy 的梯度"),
    (re.compile(r"^(\w+) trains(?=：)", re.M), "{0} 训练"),
    ("your function", "你的函数"),
    ("your optimiser", "你的优化器"),
]

# what a passing check says, after the shared words made ": passed (" "：通过 ("
PASSED = [
    ("通过 (tanh(x) and x.grad = g * (1 - tanh(x)**2) at {} points, and both gradients added when x is used twice)",
     "通过（tanh(x) 和 x.grad = g * (1 - tanh(x)**2) 在 {0} 个点上都对，x 用两次时两份梯度也都加上了）"),
    ("通过 (3 small graphs and one 5000 ops deep: each tensor once, after its parents; backward() in this order "
     "gives the right gradients)",
     "通过（3 个小图和一个 5000 层深的图：每个张量只出现一次，都排在父节点之后；backward() 按这个顺序算出的梯度是对的）"),
    ("通过 (alpha {}: every row sums to 1, the never-seen row {} is uniform)",
     "通过（alpha {0}：每一行加起来都是 1，从没见过的那一行 {1} 是均匀分布）"),
    ("通过 (same as block(x) to within 1e-9)", "通过（和 block(x) 相差在 1e-9 以内）"),
    ("通过 ({} pairs: {} broadcast as numpy's, {} raise ValueError)",
     "通过（{0} 对形状：{1} 对和 numpy 的广播结果一样，{2} 对抛出 ValueError）"),
    ("通过 (T = {}: True exactly where j > i)", "通过（T = {0}：恰好在 j > i 处为 True）"),
    ("通过 (e {} -> x {}, all {} numbers in order, gradients back to e)",
     "通过（e {0} -> x {1}，{2} 个数顺序全对，梯度也传回了 e）"),
    ("全部通过 (2 functions, 5 partial derivatives, each within {} of calculus's)",
     "全部通过（2 个函数、5 个偏导数，和微积分算出的都相差在 {0} 以内）"),
    ("通过 (output {} as the lesson's, to within {})", "通过（输出 {0} 和课上的一致，相差在 {1} 以内）"),
    ("通过 (block(x) {} as the lesson's, to within {})", "通过（block(x) {0} 和课上的一致，相差在 {1} 以内）"),
    ("通过 (logits {} and loss {} as the lesson's GPT, to within {})",
     "通过（logits {0} 和损失 {1} 都和课上的 GPT 一致，相差在 {2} 以内）"),
    ("通过 ({} AdamW steps on one batch: loss {} -> {})", "通过（在同一批数据上走 {0} 步 AdamW：损失 {1} -> {2}）"),
    ("通过 (3 x**2 within 1e-5 on shapes (3,) and {}, x left as it was, eps = {} used as given)",
     "通过（形状 (3,) 和 {0} 上都和 3 x**2 相差在 1e-5 以内，x 保持原样，传进来的 eps = {1} 也照用了）"),
    ("通过 ({} calls, every stored position where it belongs; inside the GPT, the logits of all 10 positions as "
     "without a cache)",
     "通过（{0} 次调用，存下的每个位置都在该在的地方；放进 GPT 里，全部 10 个位置的 logits 和不用缓存时一样）"),
    ("全部通过 ({} parameters, {} steps, the same numbers as torch.optim.SGD(lr={}, momentum={}))",
     "全部通过（{0} 个参数、{1} 步，数值和 torch.optim.SGD(lr={2}, momentum={3}) 一样）"),
    ("通过 (all {} steps of two schedules)", "通过（两种调度的全部 {0} 步）"),
    ("通过 (x {} -> {}, all {} numbers where they belong)", "通过（x {0} -> {1}，{2} 个数都在该在的位置）"),
    ("通过 (all {} cases: ties at top_p, a peaked row, rows out of order, a batch)",
     "通过（全部 {0} 种情形：恰好等于 top_p、很尖的一行、乱序的行、一批多行）"),
    ("通过 (output {}, every number within 1e-9 of softmax(q @ k^T / sqrt(d)) @ v)",
     "通过（输出 {0}，每个数和 softmax(q @ k^T / sqrt(d)) @ v 都相差在 1e-9 以内）"),
    ("通过 ({} cases, logits of +-1000 included)", "通过（{0} 种情形，包括 ±1000 这样的 logits）"),
    ("通过 ({} cases, logits of 1000 included)", "通过（{0} 种情形，包括 1000 这样的 logits）"),
    ("通过 ({} shapes of {} to {} dims, the same strides as numpy's)",
     "通过（{0} 个形状，{1} 到 {2} 维，步长都和 numpy 的一样）"),
    ("通过 (x, y of shape ({}, {}), y one position after x, all {} window starts drawn in {} batches)",
     "通过（x、y 的形状是 ({0}, {1})，y 比 x 晚一个位置，{3} 批里抽到了全部 {2} 个窗口起点）"),
    ("通过 (specials at ids 0..3, characters sorted from 4, decode(encode(text)) == text)",
     "通过（特殊词元占 id 0..3，字符排好序从 4 开始，decode(encode(text)) == text）"),
    ("通过 (all {} parameters copied; logits agree within 1e-5: {})",
     "通过（{0} 个参数全部复制过去；logits 在 1e-5 以内一致：{1}）"),
]

# what the reader's code should do (reader_errors' "expected ...", the function's name before it)
EXPECTED = [
    ("(shape) -> row-major strides in elements, e.g. (12, 4, 1) for (2, 3, 4)",
     "(shape) -> 按元素数算的行优先步长，比如 (2, 3, 4) 的是 (12, 4, 1)"),
    ("(a, b) -> the broadcast shape as a tuple, or ValueError as np.broadcast_shapes",
     "(a, b) -> 广播后的形状（一个 tuple），不能广播时像 np.broadcast_shapes 一样抛出 ValueError"),
    ("(x) -> tanh(x) as a Tensor whose _backward adds g * (1 - tanh(x)**2) into x.grad",
     "(x) -> 一个装着 tanh(x) 的 Tensor，它的 _backward 把 g * (1 - tanh(x)**2) 加进 x.grad"),
    ("(loss) -> every tensor loss was computed from, each once, after its parents",
     "(loss) -> 算出 loss 用到的每个张量，各出现一次，排在它的父节点之后"),
    ("(f, x, eps) -> (f(x + eps) - f(x - eps)) / (2 eps) for every element of x",
     "(f, x, eps) -> 对 x 的每个元素算 (f(x + eps) - f(x - eps)) / (2 eps)"),
    ("(x, dim) -> log(sum(exp(x))) along dim, finite for logits of 1000",
     "(x, dim) -> 沿 dim 算 log(sum(exp(x)))，logits 大到 1000 也得是有限值"),
    ("(params, lr=0.1, momentum=0.9) to step like torch.optim.SGD",
     "(params, lr=0.1, momentum=0.9) 每一步都和 torch.optim.SGD 走得一样"),
    ("(data, batch_size, block_size, rng) -> (x, y), each (B, T), y one position after x",
     "(data, batch_size, block_size, rng) -> (x, y)，形状都是 (B, T)，y 比 x 晚一个位置"),
    ("(chars) with encode(text) -> ids and decode(ids) -> text",
     "(chars) 建出分词器，带 encode(text) -> ids 和 decode(ids) -> text"),
    ("(e): e (B, k, d) -> x (B, k*d), the window's vectors in order",
     "(e): e (B, k, d) -> x (B, k*d)，窗口里的向量按顺序排"),
    ("(T) -> a (T, T) boolean array, True where j > i", "(T) -> (T, T) 的布尔数组，j > i 处为 True"),
    ("(step, config) -> the learning rate of that step (warmup, then cosine to min_lr)",
     "(step, config) -> 这一步的学习率（先预热，再按余弦降到 min_lr）"),
    ("(kv_cache, k, v, start) -> the keys and values of positions 0 .. start+T-1",
     "(kv_cache, k, v, start) -> 位置 0 .. start+T-1 的键和值"),
    ("(numpy_gpt, torch_gpt) to copy every weight of the numpy GPT into the torch GPT",
     "(numpy_gpt, torch_gpt) 把 numpy GPT 的每个权重都复制进 torch GPT"),
    ("(block, x) -> x + attn(ln_1(x)), then + mlp(ln_2(...)): (B, T, C)",
     "(block, x) -> x + attn(ln_1(x))，再 + mlp(ln_2(...))：(B, T, C)"),
    (re.compile(r"\(name, parameter\) pairs from ?([^\n]*)"), "{0} 给出的 (name, parameter) 对"),
    (re.compile(r"\((config(?:, rng)?)\) to build$", re.M), "({0}) 能建出来"),
    ('("hello") to build a tokenizer of the characters e, h, l, o', '("hello") 建出字符 e、h、l、o 的分词器'),
    (re.compile(r"\((.+?)\) to build a tokenizer$", re.M), "({0}) 建出分词器"),
    ("decode(encode(text)) to give text back", "decode(encode(text)) 还原出 text"),
    ("logits, a Tensor (B, T, V)", "logits，一个 (B, T, V) 的 Tensor"),
    ("loss, a Tensor holding one number", "loss，一个只装一个数的 Tensor"),
    ("a Tensor (B, T, C)", "一个 (B, T, C) 的 Tensor"),
]

# lesson 0 (first-network)
FIRST_NETWORK = [
    ("L(w, b) = mean((w*x + b - y)^2) on the lesson's 20 points, at theta = [w, b] = [0, 0]:",
     "L(w, b) = mean((w*x + b - y)^2)，用课上的 20 个点，在 theta = [w, b] = [0, 0] 处："),
    ("f(t) = (t0 - 1)^2 + 2*t0*t1 + t2^3 at theta = [0.5, -1, 2]:",
     "f(t) = (t0 - 1)^2 + 2*t0*t1 + t2^3，在 theta = [0.5, -1, 2] 处："),
    (re.compile(r"  \(calculus: (.*)\)$", re.M), "（微积分算出的是 {0}）"),
    ("None: return the array of partial derivatives", "None：要返回由偏导数组成的数组"),
    ("an array of shape {}: one partial derivative per entry of theta, shape {}",
     "形状为 {0} 的数组：theta 每个分量对应一个偏导数，形状应该是 {1}"),
    ("{}, and theta was left as {}:", "{0}，而且 theta 被留成了 {1}："),
    ("put each entry back after nudging it (theta[i] -= h), so that the next one starts from theta",
     "每挪完一个分量都要把它挪回去（theta[i] -= h），下一个才从原来的 theta 出发"),
    ("all zeros: fill grad[i] for every i, (f(theta with theta[i] + h) - f(theta)) / h",
     "全是 0：每个 i 都要填上 grad[i]，即 (f(theta[i] 加上 h 之后的 theta) - f(theta)) / h"),
    ("the sign is flipped: (f(theta + h) - f(theta)) / h, the nudged value first",
     "符号反了：(f(theta + h) - f(theta)) / h，挪过的值在前"),
    ("entry i is the sum of the first i+1 partial derivatives: the nudges pile up;",
     "第 i 个分量是前 i+1 个偏导数之和：每次挪动都叠在了一起；"),
    ("undo each nudge before the next one", "挪下一个之前，先把上一个挪回去"),
    (re.compile(NUMBER + " times too small: the change of f is not yet divided by h"),
     "只有应有值的 {0} 倍：f 的变化量还没除以 h"),
    ("close, but not close enough: make h smaller (1e-6 works well in float64)",
     "接近了，但还不够近：把 h 取小一些（float64 里 1e-6 就很好）"),
]

# lesson 1 (storage) and lesson 2 (broadcast-matmul)
STORAGE_BROADCAST = [
    ("one stride per dim: shape {} needs {}, the answer gives {}", "每一维一个步长：形状 {0} 要 {1} 个，你的答案给了 {2} 个"),
    ("the right numbers in reverse order: strides[0] belongs to dim 0, the one that moves slowest",
     "数对了，顺序反了：strides[0] 属于第 0 维，也就是变得最慢的那一维"),
    ("column-major (Fortran-order) strides: there dim 0 moves by 1.", "这是列优先（Fortran 顺序）的步长：那里第 0 维每步走 1。"),
    ("Row-major: the last dim moves by 1, each earlier dim by the product of the sizes after it",
     "行优先：最后一维每步走 1，前面每一维每步走它后面各维长度的乘积"),
    ("bytes for {}-byte elements, what numpy's .strides shows;",
     "这是按 {0} 字节的元素算出的字节数，也就是 numpy 的 .strides 显示的；"),
    ("strides here count elements: divide by the itemsize", "这里的步长按元素个数算：要除以 itemsize"),
    ("strides[d] is the product of the sizes after dim d, shape[d+1:], not from dim d on:",
     "strides[d] 是第 d 维之后各维长度的乘积，即 shape[d+1:]，不从第 d 维算起："),
    ("the last dim moves by 1", "最后一维每步走 1"),
    (", got None (the function returned nothing: is a `return` missing?)",
     "，得到 None（函数什么也没返回：是不是少了 `return`？）"),
    (", got {}: expected a tuple of ints, one per dim", "，得到 {0}：应该是由整数组成的 tuple，每一维一个"),
    (", got {}: expected a tuple of ints", "，得到 {0}：应该是由整数组成的 tuple"),
    ("each size is the larger of the pair, but two different sizes where neither is 1",
     "每一维都取了两者中大的那个，可是两个长度不同、又都不是 1 时，"),
    ("do not broadcast: raise ValueError", "是不能广播的：要抛出 ValueError"),
    ("that is what aligning the shapes at the left gives; broadcasting aligns them at the right,",
     "这是把两个形状靠左对齐的结果；广播是靠右对齐的，"),
    ("at their last dims, and pads the shorter one with 1s on the left", "从最后一维对起，短的那个在左边补 1"),
    ("a dim of size 1 is stretched to the other size: keep the larger one, not the smaller",
     "长度为 1 的维会被拉伸成另一边的长度：要保留大的那个，不是小的"),
    ("a ValueError (they do not broadcast)", "抛出 ValueError（它们不能广播）"),
]

# lesson 3 (autograd) and lesson 4 (gradcheck)
AUTOGRAD_GRADCHECK = [
    ("a gradient of shape {} handed to x._accumulate, for x of shape {}:",
     "交给 x._accumulate 的梯度形状是 {0}，而 x 的形状是 {1}："),
    ("x.grad of shape {}, for x of shape {}:", "x.grad 的形状是 {0}，而 x 的形状是 {1}："),
    ("the gradient lost its shape. x.grad holds one number per element of x, each element's own",
     "梯度丢了形状。x.grad 里 x 的每个元素各有一个数，就是这个元素自己的"),
    ("derivative g * (1 - tanh(x)**2): do not sum it (no .sum())", "导数 g * (1 - tanh(x)**2)：不要把它加起来（不要 .sum()）"),
    ("forward, x = {}:", "前向计算，x = {0}："),
    ("{}(x) should return a Tensor, got {}", "{0}(x) 应该返回一个 Tensor，得到的是 {1}"),
    ("y = {}(x) does not remember x and its _backward (y._prev = {} tensors, y._backward = {}):",
     "y = {0}(x) 没有记下 x 和它的 _backward（y._prev 里有 {1} 个张量，y._backward = {2}）："),
    ('build y with Tensor._make(out, (x,), _backward, "tanh")', '要用 Tensor._make(out, (x,), _backward, "tanh") 构造 y'),
    ("x.grad = None: your _backward passed nothing to x (call x._accumulate(...))",
     "x.grad = None：你的 _backward 什么也没传给 x（要调用 x._accumulate(...)）"),
    ("that is g * (1 - tanh(x)): the square is missing", "这是 g * (1 - tanh(x))：少了平方"),
    ("that is g * (1 - x**2): the derivative is 1 - tanh(x)**2, the output squared, not the input",
     "这是 g * (1 - x**2)：导数是 1 - tanh(x)**2，平方的是输出，不是输入"),
    ("that is 1 - tanh(x)**2 without g: multiply by g, the gradient coming in (chain rule)",
     "这是没乘 g 的 1 - tanh(x)**2：要乘上传进来的梯度 g（链式法则）"),
    ("that is g passed on unchanged: multiply it by the local derivative 1 - tanh(x)**2",
     "这是把 g 原样传了下去：要乘上局部导数 1 - tanh(x)**2"),
    ("L = sum({}(x) + {}(x)), x used twice:", "L = sum({0}(x) + {1}(x))，x 用了两次："),
    ("only one of the two uses counted: add into x.grad with x._accumulate(...), never x.grad = ...",
     "两次使用只算上了一次：要用 x._accumulate(...) 累加进 x.grad，不能写 x.grad = ..."),
    ("L = h + h * k, h = x * w (h used twice)", "L = h + h * k，h = x * w（h 用了两次）"),
    ("L = q * p, q = p + x, p = x * y (x and p used twice)", "L = q * p，q = p + x，p = x * y（x 和 p 各用了两次）"),
    ("a list of tensors, got {}", "由张量组成的列表，得到的是 {0}"),
    ("position {} holds {}, which L was not computed from", "第 {0} 个位置放的是 {1}，可 L 不是由它算出来的"),
    ("{} appears twice (positions {} and {}): each tensor goes in once; remember the ones already visited",
     "{0} 出现了两次（第 {1} 和第 {2} 个位置）：每个张量只放一次；要记下已经访问过的"),
    ("missing {} ({} of {} tensors): every tensor L was computed from goes in, leaves too, and L itself",
     "缺少 {0}（{2} 个张量里缺了 {1} 个）：算出 L 用到的每个张量都要放进去，叶子也算，还有 L 自己"),
    (re.compile(r"^(\s*缺少 .*?) and (\d+) more（", re.M), "{0} 等，另外还有 {1} 个（"),
    ("L comes first: that is the order backward() walks; return it leaves first (backward() reverses it)",
     "L 排在了最前面：那是 backward() 走的顺序；要返回叶子在前的顺序（backward() 会把它反过来）"),
    ("{} is at position {}, before its parent {} at position {}: a tensor goes after everything it was computed from",
     "{0} 在第 {1} 个位置，排在了它的父节点 {2}（第 {3} 个位置）前面：张量要排在算出它的所有张量之后"),
    ("your order: (empty)", "你的顺序：（空）"),
    ("your order: ", "你的顺序："),
    ("gradients in your order:   ", "按你的顺序算出的梯度："),
    ("gradients in a correct one: ", "按正确顺序算出的梯度："),
    ("s = x + x + ... + x, 5000 ops deep: {} raised RecursionError",
     "s = x + x + ... + x，5000 层深：{0} 抛出了 RecursionError"),
    ("Python allows about 1000 nested calls: walk the graph with a list as your own stack instead",
     "Python 只允许大约 1000 层嵌套调用：改用一个列表当你自己的栈来遍历图"),
    ("s = x + x + ... + x, 5000 ops deep", "s = x + x + ... + x，5000 层深"),
    ("s = x + x + ... + x (5001 terms)", "s = x + x + ... + x（5001 项）"),
    ("a partial sum", "某个部分和"),
    # gradcheck
    ("f(x) = sum(x**3) at x = {}: expected a gradient of shape {}, got shape {}",
     "f(x) = sum(x**3)，x = {0}：梯度的形状应该是 {1}，得到的形状是 {2}"),
    ("that is (f(x + eps) - f(x)) / eps, a forward difference, off by about 3 x eps; use central differences",
     "这是前向差分 (f(x + eps) - f(x)) / eps，大约差了 3 x eps；要用中心差分"),
    ("that is (f(x) - f(x - eps)) / eps, a backward difference, off by about 3 x eps; use central differences",
     "这是后向差分 (f(x) - f(x - eps)) / eps，大约差了 3 x eps；要用中心差分"),
    ("twice the gradient: divide by 2 eps, the distance between x + eps and x - eps",
     "是梯度的两倍：要除以 2 eps，也就是 x + eps 和 x - eps 之间的距离"),
    ("f(x) = sum(x**3) at x = {} with eps = {}: a central difference is 3 x**2 + eps**2 exactly",
     "f(x) = sum(x**3)，x = {0}，eps = {1}：中心差分恰好是 3 x**2 + eps**2"),
    ("f(x) = sum(x**3) at x = {}, eps = {}", "f(x) = sum(x**3)，x = {0}，eps = {1}"),
    (" (within 1e-5)", "（误差在 1e-5 以内）"),
    ("x of shape {}: expected a gradient of the same shape, got shape {}",
     "x 的形状是 {0}：梯度应该和它形状相同，得到的形状是 {1}"),
    ("loop over every index of x, e.g. np.ndindex(x.shape)", "要遍历 x 的每个下标，比如用 np.ndindex(x.shape)"),
    ("f(x) = sum(x**3) on a {} array, element {} (x = {}):", "f(x) = sum(x**3)，形状 {0} 的数组，元素 {1}（x = {2}）："),
    ("x changed: after the call x{} is {}, it was {}", "x 被改了：调用之后 x{0} 是 {1}，原来是 {2}"),
    ("put every element back after perturbing it", "每个元素挪动之后都要恢复原值"),
    ("use the eps you are given", "要用传进来的 eps"),
]

# lesson 5 (softmax-cross-entropy) and lesson 6 (layers-optim)
SOFTMAX_OPTIM = [
    (re.compile(r"^(\s*)hint: ", re.M), "{0}提示："),
    ("exp of a large number overflowed to inf: subtract the largest value first, then add it back",
     "大数的 exp 上溢成了 inf：先减去最大值，最后再把它加回来"),
    ("every exp underflowed to 0 and log(0) = -inf: subtract the largest value first, then add it back",
     "每个 exp 都下溢成了 0，而 log(0) = -inf：先减去最大值，最后再把它加回来"),
    ("you subtracted the largest value m but did not add it back: logsumexp(x) = m + log(sum(exp(x - m)))",
     "减了最大值 m，却没把它加回来：logsumexp(x) = m + log(sum(exp(x - m)))"),
    ("{}: logsumexp(x, dim={}) with x =", "{0}：logsumexp(x, dim={1})，x ="),
    ("shape {} (dim {} summed away), got shape {}", "形状 {0}（dim {1} 求和后消掉），得到的形状是 {2}"),
    ("a (2, 3) array along dim 1", "(2, 3) 的数组沿 dim 1"),
    ("a (2, 3) array along dim 0", "(2, 3) 的数组沿 dim 0"),
    ("one value per row", "每行一个值"),
    ("one value per column", "每列一个值"),
    ("very negative logits", "很负的 logits"),
    ("large logits", "很大的 logits"),
    ("small numbers", "小数值"),
    ("4 rows, 5 classes", "4 行，5 个类别"),
    ("exp of a large logit overflowed: subtract each row's largest logit before exp (the max trick)",
     "大 logit 的 exp 上溢了：exp 之前先减去每行最大的 logit（减最大值）"),
    ("the sign is flipped: the gradient is softmax - one_hot, not one_hot - softmax",
     "符号反了：梯度是 softmax - one_hot，不是 one_hot - softmax"),
    (re.compile(NUMBER + r" times too large: the loss is the mean over N = (\d+) rows, so divide by N"),
     "大了 {0} 倍：损失是 N = {1} 行的平均，所以要除以 N"),
    ("each row of the gradient sums to 0 (softmax sums to 1, the one-hot too); row 0 of yours sums to {}",
     "梯度的每一行加起来都是 0（softmax 加起来是 1，独热向量也是）；你的第 0 行加起来是 {0}"),
    ("a gradient of shape (N, V) = {}, got {}", "形状为 (N, V) = {0} 的梯度，得到的是 {1}"),
    ("row {} (target {}), logits {}:", "第 {0} 行（目标 {1}），logits {2}："),
    ("{}: logits (N, V) = {}, targets {}", "{0}：logits (N, V) = {1}，targets {2}"),
    # layers-optim
    ("that is plain SGD, p - lr * grad: the velocity buf must carry over from step to step",
     "这是普通的 SGD，p - lr * grad：速度 buf 要从这一步带到下一步"),
    ("(buf = momentum * buf + grad, one buf per parameter, kept in self)",
     "（buf = momentum * buf + grad，每个参数一个 buf，存在 self 里）"),
    ("that is buf = momentum * buf + (1 - momentum) * grad;", "这是 buf = momentum * buf + (1 - momentum) * grad；"),
    ("torch.optim.SGD adds the whole gradient: buf = momentum * buf + grad",
     "torch.optim.SGD 加的是整个梯度：buf = momentum * buf + grad"),
    ("after step {}, parameter {} (shape {}), lr={}, momentum={}:", "第 {0} 步之后，参数 {1}（形状 {2}），lr={3}，momentum={4}："),
    ("p did not move: step() must change p.data (p.data -= lr * buf)", "p 没有动：step() 要改 p.data（p.data -= lr * buf）"),
]

# lessons 7-9 (text-to-tokens, bigram, context)
LANGUAGE_MODELS = [
    ("data has N = {} tokens, batch_size B = {}, block_size T = {}",
     "data 有 N = {0} 个词元，batch_size B = {1}，block_size T = {2}"),
    ("{}: expected an integer array of shape (B, T) = ({}, {}), got {}",
     "{0}：应该是形状为 (B, T) = ({1}, {2}) 的整数数组，得到的是 {3}"),
    ("得到的是 shape {}, dtype {}", "得到的形状是 {0}，dtype 是 {1}"),
    (re.compile(r"x\[(\d+)\] holds positions "), "x[{0}] 取的是位置 "),
    ("x[{}] holds {}", "x[{0}] 取的是 {1}"),
    ("x[{}] should be T = {} consecutive tokens of data, got ids {}",
     "x[{0}] 应该是 data 里连续的 T = {1} 个词元，得到的 id 是 {2}"),
    ("x[{}] should be T = {} consecutive tokens of data, got {}", "x[{0}] 应该是 data 里连续的 T = {1} 个词元，得到的是 {2}"),
    (" = x itself: a target is the NEXT token, so y is x shifted left by one",
     " = x 本身：目标是下一个词元，所以 y 是 x 左移一位"),
    ("in {} batches, no window started at position {} (starts go from 0 to N - T - 1 = {}; numpy's "
     "integers(low, high) leaves out high)",
     "{0} 批里没有一个窗口从位置 {1} 开始（起点是 0 到 N - T - 1 = {2}；numpy 的 integers(low, high) 取不到 high）"),
    ("a pair (x, y), got {}", "一对 (x, y)，得到的是 {0}"),
    ("{}('hello'): ids 0..3 are <pad> <bos> <eos> <sep>, then e h l o in sorted order",
     "{0}('hello')：id 0..3 是 <pad> <bos> <eos> <sep>，接着是排好序的 e h l o"),
    ("the characters start at id 0: ids 0..3 belong to the special tokens, characters start at 4",
     "字符从 id 0 开始了：id 0..3 归特殊词元，字符从 4 开始"),
    ("the ids follow the order characters first appear: sort them, so one set of characters always gets the same ids",
     "id 是按字符第一次出现的顺序给的：要先排序，同一组字符才总能拿到同样的 id"),
    ("decode(encode({})): expected the same text back, got {}", "decode(encode({0}))：应该还原出同样的文本，得到的是 {1}"),
    (re.compile(r"^(\s*)got (\w+): ", re.M), "{0}得到 {1}: "),
    ("the denominator adds alpha once, but each of the V cells of the row got alpha:",
     "分母只加了一次 alpha，可这一行的 V 个格子每个都加了 alpha："),
    ("divide by N[a].sum() + alpha * V, and every row sums to 1", "要除以 N[a].sum() + alpha * V，这样每一行加起来才是 1"),
    ("that normalises columns (sum over axis 0): the row of a is P(. | a),", "这是按列归一化（沿 axis 0 求和）：a 那一行是 P(. | a)，"),
    ("so divide by the sum over axis 1, the next tokens", "所以要除以沿 axis 1 的和，也就是对下一个词元求和"),
    ("alpha was not added: an unseen pair still gets P = 0 and costs -ln 0 = inf",
     "没有加 alpha：没见过的组合概率还是 0，损失是 -ln 0 = inf"),
    ("alpha={}, row {} (counts {}):", "alpha={0}，第 {1} 行（计数 {2}）："),
    ("counts {}, alpha={}: expected shape {}, got {}", "计数 {0}，alpha={1}：形状应该是 {2}，得到的是 {3}"),
    (re.compile(r", sum (\S+)$", re.M), "，和为 {0}"),
    ("that is e.permute(0, 2, 1) flattened: channel 0 of every position, then channel 1, ...;",
     "这是 e.permute(0, 2, 1) 摊平的结果：先是每个位置的通道 0，再是通道 1……；"),
    ("e is already (B, k, d) in order, reshape it as it is", "e 本来就是按顺序排好的 (B, k, d)，直接 reshape 就行"),
    ("the window is reversed: position k-1 comes first; keep the positions in order 0, 1, ..., k-1",
     "窗口反了：位置 k-1 排在了最前面；要按 0, 1, ..., k-1 的顺序排"),
    ("a Tensor (the engine must see the op to send gradients back), got {}",
     "一个 Tensor（引擎要看到这个运算，才能把梯度传回去），得到的是 {0}"),
    ("e is (B, k, d) = {}", "e 是 (B, k, d) = {0}"),
    (re.compile(r"^(\s*x\[[\d, :]+\]):$", re.M), "{0}："),
    ("(B, d) is the window summed or averaged: the order of the k tokens is lost",
     "(B, d) 是把窗口加起来或取了平均：k 个词元的顺序丢了"),
    ("the values are right, but the gradient does not reach e as it should:", "数值是对的，可梯度没有传回 e："),
    ("build x from e with Tensor ops (reshape), not from e.data with numpy",
     "要用 Tensor 的运算（reshape）从 e 得到 x，不要拿 e.data 用 numpy 算"),
    ("e[{}, {}], the vector of window position {}", "e[{0}, {1}]，窗口第 {2} 个位置的向量"),
    ("numbers that are not in e", "e 里没有的数"),
    ("a Tensor, got {}", "一个 Tensor，得到的是 {0}"),
]

# lessons 10-14 (self-attention, causal-mask, multi-head, block, gpt)
ATTENTION_GPT = [
    ("that is v unchanged: compare q with k, scale, normalise, then take the weighted sum of v",
     "这是原封不动的 v：要拿 q 和 k 比较、缩放、归一化，再对 v 加权求和"),
    ("that is softmax(q @ k^T) @ v without the scale: multiply the scores by 1/sqrt(d) first",
     "这是没有缩放的 softmax(q @ k^T) @ v：先把分数乘上 1/sqrt(d)"),
    ("that divides the scores by d = {}; divide by sqrt(d) = {}", "这是把分数除以了 d = {0}；应该除以 sqrt(d) = {1}"),
    ("that is the softmax over dim=-2 (each column sums to 1); each row must: softmax(dim=-1)",
     "这是沿 dim=-2 做的 softmax（每一列加起来是 1）；应该是每一行加起来是 1：softmax(dim=-1)"),
    ("those are the attention weights (B, T, T); the last step multiplies them by v",
     "这是注意力权重 (B, T, T)；最后一步还要把它乘上 v"),
    ("output[{}, {}] (sequence {}, position {}):", "output[{0}, {1}]（序列 {2}，位置 {3}）："),
    ("that hides the diagonal too (np.triu with k=0): position 0 may see nothing and its softmax gives nan",
     "这把对角线也遮住了（np.triu 用了 k=0）：位置 0 什么也看不到，它的 softmax 得到 nan"),
    ("that hides the past and shows the future (the table flipped): True must mark j > i, the later positions",
     "这遮住了过去、露出了未来（整张表反了）：True 要标在 j > i 处，也就是后面的位置"),
    ("that is True where a position MAY look (PyTorch's attn_mask); here True marks what is hidden",
     "这是在允许看的地方标 True（PyTorch 的 attn_mask 是这样）；这里 True 标的是要遮住的"),
    ("that hides nothing: every position still sees the later ones", "什么也没遮住：每个位置还是看得到后面的"),
    ("{}({}) has dtype {}; masked_fill needs booleans (np.ones((T, T), dtype=bool))",
     "{0}({1}) 的 dtype 是 {2}；masked_fill 要的是布尔值（np.ones((T, T), dtype=bool)）"),
    ("{}({}), 1 = hidden:", "{0}({1})，1 = 遮住："),
    ("token {} of sequence {}, channels {}..{}", "序列 {1} 的词元 {0}，通道 {2}..{3}"),
    ("(seq {}, token {}, ch {})", "（序列 {0}，词元 {1}，通道 {2}）"),
    ("x is (B, T, C) = {}, n_head = {}", "x 是 (B, T, C) = {0}，n_head = {1}"),
    ("y[{}, {}, {}] (sequence {}, head {}, token {}):", "y[{0}, {1}, {2}]（序列 {3}，头 {4}，词元 {5}）："),
    ("numbers that are not in x", "x 里没有的数"),
    ("no residual: the block returns mlp(ln_2(attn(ln_1(x)))) without the two 'x +'",
     "没有残差连接：块返回的是 mlp(ln_2(attn(ln_1(x))))，少了两处 'x +'"),
    ("post-norm: LayerNorm after each sum, ln(x + f(x)), instead of x + f(ln(x))",
     "后置归一化：每次相加之后才做 LayerNorm，即 ln(x + f(x))，而不是 x + f(ln(x))"),
    ("no LayerNorm: x + attn(x), then x + mlp(x)", "没有 LayerNorm：x + attn(x)，然后 x + mlp(x)"),
    ("ln_1 used before the MLP too: ln_2 is a LayerNorm of its own", "MLP 之前也用了 ln_1：ln_2 是另一个独立的 LayerNorm"),
    ("the MLP reads the block's input x, not x + attn(ln_1(x))", "MLP 读的是块的输入 x，而不是 x + attn(ln_1(x))"),
    ("largest |yours - block(x)|: {} (largest |block(x)|: {})", "|yours - block(x)| 最大是 {0}（|block(x)| 最大是 {1}）"),
    ("no causal mask: every token also sees the later ones", "没有因果掩码：每个词元也看得到后面的词元"),
    ("at {}, 差得最多 ({}), 前 6 个数:", "在 {0} 处差得最多（{1}），前 6 个数："),
    ("model(idx, targets): expected a pair (logits, loss), got {}",
     "model(idx, targets)：应该返回一对 (logits, loss)，得到的是 {0}"),
    ("no position embedding: x = wte(idx) alone, so every position looks the same to the blocks",
     "没有位置嵌入：x 只有 wte(idx)，在各个块看来每个位置都一样"),
    ("no final LayerNorm: ln_f(x) comes before the output head", "没有最后的 LayerNorm：输出头之前要先做 ln_f(x)"),
    ("that is the sum over the B*T = {} tokens: take the mean", "这是 B*T = {0} 个词元的总和：要取平均"),
    ("loss (mean cross-entropy of the logits against targets):", "loss（logits 相对 targets 的平均交叉熵）："),
    ("{} AdamW steps (lr {}) on one batch:", "在同一批数据上走 {0} 步 AdamW（lr {1}）："),
    ("the loss to fall below 2/3 of {}", "损失降到 {0} 的 2/3 以下"),
    ("the output head reuses wte.weight (tied): logits = x @ wte.weight.T, no lm_head",
     "输出头复用 wte.weight（权重共享）：logits = x @ wte.weight.T，没有 lm_head"),
]

# lessons 15-18 (torch-twin, loop, sampling, kv-cache)
TRAINING_SAMPLING = [
    ("{}: expected a float32 torch Parameter that requires grad, got {} {}, requires_grad={}",
     "{0}：应该是 requires_grad 为 True 的 float32 torch Parameter，得到的是 {1} {2}，requires_grad={3}"),
    ("{} {}: expected the numpy GPT's values, max |numpy - torch| = {}",
     "{0} {1}：应该是 numpy GPT 里的值，max |numpy - torch| = {2}"),
    ("tiny with lr_decay_steps=150", "tiny，lr_decay_steps=150"),
    ("the rate never changes: no warmup and no decay", "学习率一直不变：没有预热，也没有衰减"),
    ("step 0 gets lr 0, so the first step would not move the weights: warm up with (step + 1) / (warmup + 1)",
     "第 0 步的 lr 是 0，第一步就不会动权重：预热要用 (step + 1) / (warmup + 1)"),
    ("after step {} (lr_decay_steps) the rate stays at min_lr = {}", "第 {0} 步（lr_decay_steps）之后，学习率一直停在 min_lr = {1}"),
    ("the cosine ends near 0; it should end at min_lr = {}", "余弦降到了 0 附近；它应该停在 min_lr = {0}"),
    ("the cosine's progress runs from 0 at step {} (the end of the warmup) to 1 at step {}",
     "余弦的进度从第 {0} 步（预热结束）的 0 走到第 {1} 步的 1"),
    ("during the warmup the rate climbs in a straight line to lr = {}", "预热期间学习率沿直线升到 lr = {0}"),
    ("a number, got {}", "一个数，得到的是 {0}"),
    ("{}, step {}: expected lr {}, got {}", "{0}，第 {1} 步：lr 应该是 {2}，得到的是 {3}"),
    # sampling
    ("the token that crosses top_p is dropped, so the kept tokens hold less than top_p (and a row whose most likely "
     "token alone passes top_p keeps nothing): drop a token only once the tokens ranked above it hold top_p",
     "越过 top_p 的那个词元被丢掉了，留下的词元加起来不到 top_p（最可能的词元一个就超过 top_p 的行，什么也留不下）："
     "只有排在前面的词元已经凑够 top_p 时，才丢掉后面的词元"),
    ("one token too many: a token whose more likely tokens already hold exactly top_p is dropped (compare the mass "
     "above it with >=, not >)",
     "多留了一个词元：排在它前面的词元加起来已经恰好是 top_p 时，它就该丢掉（拿它前面的概率和跟 top_p 比，用 >=，不是 >）"),
    ("the first tokens by index are kept: rank the tokens by probability, most likely first, before summing",
     "留下的是下标最小的几个词元：求和之前要先按概率排序，最可能的在前"),
    ("the least likely tokens are kept: sort in decreasing order (np.argsort(-probs)), the most likely first",
     "留下的是最不可能的词元：要按从大到小排序（np.argsort(-probs)），最可能的在前"),
    ("probs came back as they went in: nothing was dropped", "probs 原样返回了：什么也没丢掉"),
    ("a row kept no token (or holds nan): the most likely token is always kept, even when it alone has more than top_p",
     "有一行一个词元也没留下（或者出现了 nan）：最可能的词元总要留下，哪怕它一个就超过了 top_p"),
    ("the right tokens are kept, but the rows sum to {}: divide the kept probabilities by their sum, so that each "
     "row sums to 1",
     "留下的词元对了，可各行加起来是 {0}：要把留下的概率除以它们的和，让每一行加起来是 1"),
    ("compare the kept tokens with the expected ones, row by row", "逐行对比留下的词元和期望的词元"),
    ("None: return the filtered probabilities", "None：要返回筛过的概率"),
    ("an array of shape {}: one row of V probabilities per input row, {}",
     "形状为 {0} 的数组：每个输入行对应一行 V 个概率，应该是 {1}"),
    ("{}, and probs was changed to {}:", "{0}，而且 probs 被改成了 {1}："),
    ("work on a copy (np.where, or probs.copy()): sample() still needs the caller's array",
     "要在副本上改（np.where，或者 probs.copy()）：sample() 还要用调用方的数组"),
    ("sorted row, top_p 0.7", "排好序的一行，top_p 0.7"),
    ("the same probabilities out of order", "同样的概率，顺序打乱"),
    ("one token above top_p on its own", "单个词元就超过 top_p"),
    ("the first two hold exactly top_p", "前两个加起来恰好是 top_p"),
    ("two rows, a peaked one and a flat one", "两行，一行很尖、一行很平"),
    ("top_p 1: nothing dropped", "top_p 1：什么也不丢"),
    ("{}: probs {}, top_p {}", "{0}：probs {1}，top_p {2}"),
    ("{}, which is not an array of numbers", "{0}，这不是数值数组"),
    # kv-cache
    ("call with start={}, T={} new tokens:", "调用时 start={0}，新来 T={1} 个词元："),
    ("a tuple of two Tensors (k, v), got {}", "由两个 Tensor 组成的 tuple (k, v)，得到的是 {0}"),
    ("only this call's new tokens: attention needs every stored position",
     "只有这次调用的新词元：注意力要用到所有已经存下的位置"),
    ("the whole buffer, slots not yet written included: slice up to start+T",
     "整个缓冲区，连还没写过的槽位也算进去了：要切片到 start+T"),
    ("earlier calls' tokens must still be in the buffers: write into kv_cache's arrays in place, at positions "
     "start .. start+T-1",
     "之前几次调用的词元必须还留在缓冲区里：原地写进 kv_cache 的数组，位置是 start .. start+T-1"),
    ("inside the GPT (a prompt of 3, then 7 tokens one at a time): the logits of position {} differ from the "
     "forward pass without a cache by {}",
     "放进 GPT 里（先是 3 个词元的提示，再一次一个地生成 7 个）：位置 {0} 的 logits 和不用缓存的前向计算差了 {1}"),
    ("zeros (a slot nobody wrote)", "全是 0（没人写过的槽位）"),
    ("numbers that are no position's key or value", "不是任何位置的键或值的数"),
    (re.compile(r"the key of position (\d+)"), "位置 {0} 的键"),
    (re.compile(r"the value of position (\d+)"), "位置 {0} 的值"),
]

# lesson 19 (fast)
FAST = [
    ("通过 (B={}, nh={}, T={}, hs={}, float64: same as scaled_dot_product_attention within 1e-10)",
     "通过（B={0}，nh={1}，T={2}，hs={3}，float64：和 scaled_dot_product_attention 相差在 1e-10 以内）"),
    ("(q, k, v) -> causal attention, a (B, nh, T, hs) tensor", "(q, k, v) -> 因果注意力，一个 (B, nh, T, hs) 的张量"),
    ("a torch.Tensor of shape {}, got {}", "形状为 {0} 的 torch.Tensor，得到的是 {1}"),
    (re.compile(r"^  position (\d+) \(batch 0, head 0\): expected ([^\n]*)\n\s*got      ", re.M),
     "  位置 {0}（序列 0，头 0）：\n    期望     {1}\n    得到     "),
    (re.compile(r"^(\s*)that is exactly ", re.M), "{0}和一个常见错误完全吻合："),
    ("no causal mask: every position also looks at later ones", "没有因果掩码：每个位置也看到了后面的位置"),
    ("no scale: the scores are not divided by sqrt(hs)", "没有缩放：分数没有除以 sqrt(hs)"),
    ("softmax over dim -2: each column sums to 1 instead of each row",
     "沿 dim -2 做了 softmax：成了每一列加起来是 1，而不是每一行"),
]

# lesson 21 (inspect; its grader is minigpt.checks.inspection)
INSPECT = [
    ("通过 (exp of the mean loss over every token, {} for V = 6 uniform)",
     "通过（所有词元平均损失的 exp；V = 6 的均匀分布上是 {0}）"),
    ("(logits, targets) -> exp(mean cross-entropy over every token), one number",
     "(logits, targets) -> exp(所有词元上的平均交叉熵)，一个数"),
    ("the mean of each window's perplexity: average the losses first, then take exp once",
     "这是各个窗口困惑度的平均：要先把损失平均，再只取一次 exp"),
    ("2 ** loss: the loss is in nats (natural log), so its perplexity is e ** loss",
     "这是 2 ** loss：损失的单位是奈特（自然对数），所以困惑度是 e ** loss"),
    ("the mean loss itself: perplexity is exp of it", "这是平均损失本身：困惑度是它的 exp"),
    ("the logits were used as log-probabilities: take log_softmax first", "把 logits 直接当成了对数概率：要先做 log_softmax"),
    ("one window, uniform logits over V = 6 (perplexity V)", "一个窗口，V = 6 上的均匀 logits（困惑度就是 V）"),
    ("three windows of 4 tokens, V = 6", "3 个窗口，每个 4 个词元，V = 6"),
    ("one number, {}", "一个数：{0}"),
]

# what many graders say, inline: last, after every sentence that contains it
GENERIC = [
    ("shape: expected {} = {}, got {}", "形状：应该是 {0} = {1}，得到的是 {2}"),
    (re.compile(r"期望(\s+)shape "), "期望{0}形状 "),
    (": expected shape {}, got {}", "：形状应该是 {0}，得到的是 {1}"),
    (re.compile(r"(?<!\w)positions (\d+)\.\.(\d+)"), "位置 {0}..{1}"),
    (re.compile(r": expected (.+?)(?:, got |，得到 )"), "：期望 {0}，得到 "),
    (re.compile(r"(期望 .*?), got "), "{0}，得到 "),
    (re.compile(r"(期望|得到) (?=[\u4e00-\u9fff])"), "{0}"),  # "期望 位置 0" -> "期望位置 0"; aligned columns stay
]

TABLE = (NAMES + PASSED + EXPECTED + FIRST_NETWORK + STORAGE_BROADCAST + AUTOGRAD_GRADCHECK + SOFTMAX_OPTIM
         + LANGUAGE_MODELS + ATTENTION_GPT + TRAINING_SAMPLING + FAST + INSPECT + GENERIC)


def _compile(en):
    """A template's regex: its text literal, each ``{}`` a group (the last one, at the end, takes the rest of the
    line); a compiled regex as it is."""
    if not isinstance(en, str):
        return en
    parts = en.split("{}")
    pattern = "".join(re.escape(part) + ("(.+?)" if i < len(parts) - 1 else "") for i, part in enumerate(parts))
    if en.startswith("{}"):  # from the line's first word on: its indent stays where it is
        pattern = r"(\S.*?)" + pattern[len("(.+?)"):]
    if en.endswith("{}"):
        pattern = pattern[: -len("(.+?)")] + "([^\n]*)"
    return re.compile(pattern)


RULES = [(_compile(en), zh) for en, zh in TABLE]


def _shared(report: str) -> str:
    """``report`` with the words of ``SHARED`` in Chinese; a location in brackets, (file line n: code), becomes
    （file 第 n 行：code）."""
    for en, zh, *close in SHARED:
        if isinstance(en, str):
            report = report.replace(en, zh)
            continue
        if not close:
            report = en.sub(zh, report)
            continue
        lines = []
        for line in report.split("\n"):
            new = en.sub(zh, line)
            if new != line and line.endswith(close[0]):
                new = new[: -len(close[0])] + close[1]
            lines.append(new)
        report = "\n".join(lines)
    return report


def translate(report: str) -> str:
    """A grader's English ``report`` in Chinese: the shared words, then every grader sentence of the table."""
    report = _shared(report)
    for pattern, zh in RULES:
        if pattern.groups == 0:
            report = pattern.sub(zh.replace("\\", "\\\\"), report)
        else:
            report = pattern.sub(lambda m, zh=zh: zh.format(*m.groups()), report)
    return report
