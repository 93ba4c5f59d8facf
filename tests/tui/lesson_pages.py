#!/usr/bin/env python3
"""Read shipped lesson files (a Lua table literal) without meshcast: one line per page,
fields separated by the unit separator (octal 037, so that an empty field stays a field): lesson, page (1-based), kind (none|choice|node|link|try), question, the
choices joined by '|', the right choice's index (0-based, -1 if none), the explanation.
Only the literal subset the lessons use: strings ("", '', [[ ]]) joined with .., numbers,
booleans, names, nested tables.  Used by t_lesson_pages.sh and t_lesson_answers.sh."""
import re
import sys

TOK = re.compile(r'--\[\[.*?\]\]|--[^\n]*|\[(=*)\[(.*?)\]\1\]|"((?:\\.|[^"\\])*)"|'
                 r"'((?:\\.|[^'\\])*)'|(\.\.)|([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|"
                 r'([A-Za-z_][A-Za-z0-9_]*)|([{}=,;()\[\]])|(\s+)', re.S)


def unesc(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def lex(src):
    out, i = [], 0
    while i < len(src):
        m = TOK.match(src, i)
        if not m:
            raise SystemExit("cannot read at %d: %r" % (i, src[i:i + 30]))
        i = m.end()
        if m.group(2) is not None:
            out.append(('s', m.group(2).lstrip('\n') if m.group(2).startswith('\n') else m.group(2)))
        elif m.group(3) is not None:
            out.append(('s', unesc(m.group(3))))
        elif m.group(4) is not None:
            out.append(('s', unesc(m.group(4))))
        elif m.group(5):
            out.append(('..', None))
        elif m.group(6):
            out.append(('n', float(m.group(6))))
        elif m.group(7):
            out.append(('id', m.group(7)))
        elif m.group(8):
            out.append(('p', m.group(8)))
    return out


class P:
    def __init__(self, toks):
        self.t, self.i = toks, 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ('eof', None)

    def next(self):
        self.i += 1
        return self.t[self.i - 1]

    def value(self):
        k, v = self.next()
        if k == 'p' and v == '{':
            return self.table()
        if k == 's':
            while self.peek()[0] == '..':
                self.next()
                v += self.value()
            return v
        if k == 'n':
            return v
        if k == 'id':
            return {'true': True, 'false': False, 'nil': None}.get(v, v)
        raise SystemExit("unexpected %r" % ((k, v),))

    def table(self):
        arr, d = [], {}
        while not (self.peek() == ('p', '}')):
            if self.peek()[0] == 'id' and self.peek(1) == ('p', '='):
                key = self.next()[1]
                self.next()
                d[key] = self.value()
            elif self.peek() == ('p', '['):
                self.next()
                key = self.value()
                self.next()
                self.next()
                d[key] = self.value()
            else:
                arr.append(self.value())
            if self.peek()[0] == 'p' and self.peek()[1] in ',;':
                self.next()
        self.next()
        return arr if arr and not d else (d if not arr else dict(d, _arr=arr))


def load(path):
    toks = lex(open(path, encoding='utf-8').read())
    p = P(toks)
    while p.peek() != ('id', 'return'):
        p.next()
    p.next()
    return p.value()


def flat(s):
    return ' '.join(str(s).split())


for path in sys.argv[1:]:
    name = re.sub(r'.*/|\.lua$', '', path)
    les = load(path)
    for n, page in enumerate(les['pages'], 1):
        q = page.get('question') if isinstance(page, dict) else None
        kind, qt, ch, ans, ex = 'none', '', [], -1, ''
        if isinstance(q, dict):
            qt, ex = flat(q.get('text', '')), flat(q.get('explain', ''))
            if 'choices' in q:
                kind, ch = 'choice', [flat(c) for c in q['choices']]
                a = q.get('answer')
                ans = int(a) - 1 if isinstance(a, float) else ord(str(a)) - ord('a')
            elif q.get('click'):
                kind = q['click']
            else:
                kind = 'try'
        print('\037'.join([name, str(n), kind, qt, '|'.join(ch), str(ans), ex]))
