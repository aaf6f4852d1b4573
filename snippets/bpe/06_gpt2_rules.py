from minigpt.bpe import bytes_to_unicode, split

table = bytes_to_unicode()
moved = [b for b, c in table.items() if ord(c) != b]
print(f"{len(table) - len(moved)} bytes keep their character, {len(moved)} move to U+0100 and up:")
for b in (0x00, 0x09, 0x0A, 0x20, 0x41, 0xE5):
    print(f"  byte 0x{b:02X} -> {table[b]!r}")
print("'床' as GPT-2's files write its bytes:", "".join(table[b] for b in "床".encode("utf-8")))
text = "Hello world, it's 2024!  I'm here.\n床前明月光"
print(split(text))
