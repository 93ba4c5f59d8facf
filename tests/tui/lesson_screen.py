#!/usr/bin/env python3
"""Check a lesson page's screens (tmux captures, one file each, scrolled top to bottom with })
for t_lesson_pages.sh.  Prints "ok DESC" or "bad DESC DETAIL" lines.
  reach  Q CHOICES(|) FILES...  the whole question and every choice are in the pane's text
  after  EXPLAIN FILES...       "Right!" and the whole explanation are in the pane's text
  hides  Q CHOICES ANSWER FILES... the right choice's numbers appear nowhere on the screens
                                before it is answered: not in the title, the narration and
                                status lines, the pane's text (but the choices and the
                                question itself); the map's axis labels are not read"""
import re
import sys


def pane(path):
    """The lesson pane's lines of a capture: right of the last vertical bar."""
    out = []
    for line in open(path, encoding='utf-8', errors='replace').read().split('\n'):
        if '\u2502' in line:
            out.append(line.rsplit('\u2502', 1)[1][1:].rstrip())
    return out


SCORE2 = r'right \d+ +(first try|1st) \d+/\d+'   # the score's second line, when it has two


def body(lines):
    """Between the 'page N/M' header line(s) and the key line at the bottom."""
    for i, l in enumerate(lines):
        if re.match(r'page \d+/\d+', l):
            i += 1 if i + 1 < len(lines) and re.match(SCORE2, lines[i + 1]) else 0
            return lines[i + 1:-1]
    return lines[:-1]


def merged(files):
    res = []
    for f in files:
        b = body(pane(f))
        k = min(len(res), len(b))
        while k > 0 and res[-k:] != b[:k]:
            k -= 1
        res += b[k:]
    return res


def flat(lines):
    return ' '.join(' '.join(lines).split())


def numbers(text):
    return re.findall(r'(?<![A-Za-z0-9.:_-])\d+(?:\.\d+)?(?![0-9A-Za-z]|\.\d)', text)


mode, args = sys.argv[1], sys.argv[2:]
if mode == 'reach':
    q, ch, files = args[0], [c for c in args[1].split('|') if c], args[2:]
    t = flat(merged(files))
    print(('ok' if q in t else 'bad') + ' the whole question | ' + t[-300:])
    for i, c in enumerate(ch):
        lead = '%s) %s' % (chr(97 + i), c)
        print(('ok' if lead in t else 'bad') + ' choice ' + lead + ' | ' + t[-200:])
elif mode == 'after':
    ex, files = args[0], args[1:]
    t = flat(merged(files))
    print(('ok' if 'Right!' in t else 'bad') + ' Right! | ' + t[-200:])
    if ex:
        print(('ok' if ex in t else 'bad') + ' the whole explanation | ' + t[-300:])
elif mode == 'hides':
    q, ch, ans, files = args[0], args[1].split('|'), int(args[2]), args[3:]
    want = set(numbers(ch[ans])[:1])   # its first number: "8, as from (0,0)" is about 8
    if not want:
        print('ok no number in the right choice (%s)' % ch[ans])
        sys.exit(0)
    seen = []   # the title, the pane (but its choices), the narration and status lines
    for f in files:
        lines = open(f, encoding='utf-8', errors='replace').read().rstrip('\n').split('\n')
        head = 0   # the pane's title and "page N/M  seen ..." lines are the lesson's own
        for k, line in enumerate(lines):
            p = line.rsplit('\u2502', 1)
            if len(p) == 2 and head < 2:   # (and the panel tabs above them; the title wraps)
                if re.match(r'page \d+/\d+', p[1][1:]):
                    head = 1
                elif head == 1:
                    head = 2
                    if re.match(SCORE2, p[1][1:]):
                        continue
                if head < 2:
                    continue
            if len(p) == 2:
                if not (re.match(r'^ [ +-]?[a-z]\) ', p[1]) or p[1].startswith('     ')):
                    seen.append(p[1])
            elif k == 0 or k >= len(lines) - 2:   # (the cursor's place and the zoom: not it)
                seen.append(re.sub(r'cursor \S+|zoom \d+', '', line))
    # a node's name (0,0) or (2,3,1) is a place, not a count
    seen = [re.sub(r'\(\d+(,\d+)+\)', '(node)', l) for l in seen]
    text = '\n'.join(seen)
    qn = numbers(q)
    hits = [n for n in want if n not in qn and n in numbers(text)]
    if hits:
        where = [l.strip() for l in seen if set(numbers(l)) & set(hits)]
        print('bad the right answer %s not on screen before it is given | %s' %
              (','.join(sorted(hits)), ' // '.join(dict.fromkeys(where))[:400]))
    else:
        print('ok the right answer (%s) not on screen before it is given' % ch[ans])
