from poems_cpu import load_maps

model, poems = load_maps()  # poems-cpu's attention weights, as the attention explorer shows them
poem = next(p for p in poems if p.get("title") == "送李给事")  # a real poem of the validation split
tokens, att = poem["tokens"], poem["att"]  # att: (L, H, T, T); row t writes tokens[t + 1]
print(f"{model['name']}: {model['n_layer']} layers x {model['n_head']} heads, {model['params']:,} parameters")
print(f"{poem['author']}《{poem['title']}》: {poem['text']}")
t = tokens.index("劳") - 1  # the row that writes 劳, line 2's rhyme
print(f"writing 劳, each head's largest weight goes to:")
for l in range(att.shape[0]):
    cells = []
    for h in range(att.shape[1]):
        s = att[l, h, t].argmax()  # (T,) -> the position looked at most
        cells.append(f"{tokens[s]:>2} {att[l, h, t, s]:.2f}")
    print(f"  layer {l + 1}: " + " | ".join(cells))
