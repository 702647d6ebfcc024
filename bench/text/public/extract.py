#!/usr/bin/env python3
"""Labelled polarity examples from public negation and speculation corpora, in the bench's TSV
format (label, phrase, sentence), by a fixed mapping of their annotation to what a grader means:

- negated: a content word at most three words after a negation cue, inside that cue's scope and
  outside the scope of every real hedge;
- hedged: a content word at most six words after a speculation cue, inside its scope, where the
  cue is a real hedge (not the ability "can"/"cannot", not "I think", not a modal that carries a
  negation: "could not", "would not", "shouldn't");
- affirmed: a content word outside every scope of the sentence.

Content words only (no stop words, numbers or words shorter than three letters), each used once
per sentence, and only words that occur once in their sentence, so the phrase names one mention.
*SEM 2012 (Conan Doyle) annotates negation only, so whether a word is outside every speculation
scope cannot be told there: its questions, and its sentences holding a modal, a conditional or a
hedge word that is a real hedge (speculation cues of the BioScope guidelines), give no example.

  extract.py MIRROR OUT_DIR       (MIRROR: a checkout of joey234/negation-focused-pretraining)
  extract.py MIRROR OUT_DIR sfu   the SFU Review corpus alone (GPL-3.0, held out: measured at bench time, not kept)
  extract.py MIRROR OUT_DIR dev   the development set without the cap, for reading its misses (not kept)
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

STOP = set("""a an the and or but if then than that this these those there here of in on at by for with from to into onto
over under about as is are was were be been being am do does did has have had having it its he she they them his her
their our we you your i me my him us who whom whose which what when where why how not no nor never none nothing all any
each every some such so too very can could may might must shall should will would also only just more most less least
one two three upon out up down off again further once same other own both few many much
however although though whereas while because since thus therefore hence thereby despite during between after before
following until unless always often even still yet moreover furthermore indeed surprisingly interestingly contrast
addition instead rather either neither whether within without among against through throughout via well else ever already
almost quite really sir madam""".split())  # function words and connectives: no grader asks about them
HEDGE_WORDS = set("""may might could would should possibly possible perhaps probably probable likely unlikely seem seems
seemed appear appears appeared suggest suggests suggested suggesting indicate indicates indicated whether if suspect
suspected presumably apparently think thought believe believed guess fancy imagine""".split())
CAP = 250  # examples per label per output file


def words_of(sentence):
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]", sentence)]


SINGULAR_IN_S = set("""this his has was is as us yes thus plus minus versus status focus virus bonus campus corpus consensus
census radius stimulus apparatus surplus onus genus sinus fungus cactus syllabus circus chorus octopus prospectus hiatus impetus
exodus tinnitus caucus fetus locus modulus calculus abacus nucleus bus nexus stylus terminus emeritus opus omnibus walrus uterus
humerus papyrus iris chassis tennis debris pelvis trellis marquis mantis epidermis metropolis gas bias alias atlas canvas whereas
christmas pancreas overseas chaos kudos cosmos ethos pathos thermos logos asbestos macos news lens species series gross less
unless across always perhaps its ours yours theirs hers does goes""".split())


def _consonant(w, i):
    if w[i] in "aeiou":
        return False
    return not (w[i] == "y" and (i == 0 or not _consonant(w, i - 1)))


def _measure(w):
    return sum(1 for i in range(1, len(w)) if _consonant(w, i) and not _consonant(w, i - 1))


def _short_syllable(w):
    n = len(w)
    return n >= 3 and _consonant(w, n - 1) and not _consonant(w, n - 2) and _consonant(w, n - 3) and w[-1] not in "wxy"


def _verb_base(r):
    n = len(r)
    if r.endswith(("at", "bl", "iz")):
        return r + "e"
    if n >= 4 and r[-1] == r[-2] and _consonant(r, n - 1) and r[-1] not in "lsz":
        return r[:-1]
    if (_measure(r) == 1 and _short_syllable(r)) or (n == 2 and _consonant(r, 1)):
        return r + "e"
    return r


NOUN_IN_ING = set("""evening morning ceiling meaning bedding pudding wedding herring during sibling darling awning lightning shilling farthing viking""".split())  # stemmer.cpp, noun_in_ing
IRREGULAR_PLURALS = {"matrices": "matrix", "indices": "index", "vertices": "vertex", "appendices": "appendix", "halves": "half", "shelves": "shelf", "knives": "knife", "wives": "wife", "selves": "self", "wolves": "wolf", "loaves": "loaf", "thieves": "thief", "children": "child", "men": "man", "women": "woman", "mice": "mouse", "feet": "foot", "teeth": "tooth", "geese": "goose", "axes": "axis", "crises": "crisis", "hypotheses": "hypothesis", "theses": "thesis", "criteria": "criterion", "phenomena": "phenomenon", "nuclei": "nucleus", "stimuli": "stimulus", "radii": "radius", "loci": "locus"}  # stemmer.cpp, irregular_plurals


def key(word):
    """The tool's inflection key of a word (operators/text/stemmer.cpp, inflection_key), so that a phrase is
    taken only when no other word of its sentence shares its key ("bind" beside "binding")."""
    w = word.lower()
    if len(w) <= 2 or not re.fullmatch(r"[a-z']+", w):
        return w
    if w.endswith("'s"):
        w = w[:-2]
    elif w.endswith("s'"):
        w = w[:-1]
    if len(w) <= 2:
        return w
    w = IRREGULAR_PLURALS.get(w, w)
    singular_in_s = lambda x: x in SINGULAR_IN_S or x.endswith(("ss", "ous", "sis", "itis", "xis"))
    if len(w) >= 4 and w.endswith("s") and not singular_in_s(w):
        if w.endswith("ies"):
            w = w[:-3] + "y" if len(w) >= 5 else w[:-1]
        elif w.endswith("ses") and len(w) >= 5 and singular_in_s(w[:-2]):
            w = w[:-2]
        elif w.endswith("oes") and len(w) >= 5:
            w = w[:-2]
        else:
            w = w[:-1]
    vowel = lambda x: any(not _consonant(x, i) for i in range(len(x)))
    cut = False
    if len(w) >= 4 and w.endswith("ied"):
        w = w[:-3] + "y" if len(w) >= 5 else w[:-1]
    elif len(w) >= 4 and w.endswith("ed") and not w.endswith("eed") and vowel(w[:-2]):
        cut = True
        w = _verb_base(w[:-2])
        w = w + "e" if w.endswith("u") else w
    elif len(w) >= 5 and w.endswith("ing") and vowel(w[:-3]) and w not in NOUN_IN_ING:
        cut = True
        w = _verb_base(w[:-3])
        w = w + "e" if w.endswith("u") else w
    if cut and len(w) >= 5 and w.endswith("ick") and _measure(w[:-1]) >= 2:
        w = w[:-1]
    if len(w) >= 5 and w.endswith("eed"):
        w = w[:-1]
    if w.endswith("e") and len(w) >= 4 and _consonant(w, len(w) - 2):
        r = w[:-1]
        if _measure(r) > 1 or (_measure(r) == 1 and not _short_syllable(r)):
            w = r
    if len(w) >= 3 and w[-1] == "y" and _consonant(w, len(w) - 2):
        w = w[:-1] + "i"
    return w


def keys_of(text):
    """The keys of every word the tool reads in a text: split at every character that is not a letter or an
    apostrophe, as its tokeniser splits hyphenated words and names glued to digits."""
    return [key(w) for w in re.findall(r"[A-Za-z][A-Za-z']*", text)]


def one_mention(word, sentence_keys):
    """The phrase names one mention: each of its words' keys occurs once in the sentence."""
    return all(sentence_keys.count(k) == 1 for k in keys_of(word))


def word_token(token):
    """A token that is a word as the tool reads it, and a content word (not glued to a digit: "BZLF1")."""
    return re.fullmatch(r"[A-Za-z][A-Za-z'-]*[A-Za-z]", token) is not None and content(token)


def content(word):
    w = word.lower()
    return len(w) >= 3 and w not in STOP and not w.endswith("n't")


def git_show(mirror, path):
    return subprocess.run(["git", "-C", mirror, "show", "HEAD:" + path], check=True, capture_output=True).stdout.decode("utf-8")


def detok(tokens):
    out = ""
    for t in tokens:
        # A closing quotation mark ('') is glued to the word before it, an opening one (``) to the next.
        # An apostrophe may be written ’ or, in text decoded from Windows-1252 as Latin-1, U+0092.
        if out and not re.match("^([,.;:!?)\\]}]|''|n?['\u2019\u0092](s|t|ll|re|ve|d|m)?)$", t) and not out.endswith(("(", "``")):
            out += " "
        out += t
    return out.replace("``", '"').replace("''", '"')


def starsem(mirror, paths):
    """Examples from *SEM 2012 CD-SCO files (CoNLL: 7 columns, then cue, scope, event per negation)."""
    rows = []
    for path in paths:
        block = []
        for line in git_show(mirror, path).split("\n") + [""]:
            if line.strip():
                block.append(line.split("\t"))
                continue
            if block:
                rows.append(block)
            block = []
    out = {"negated": [], "affirmed": []}
    for block in rows:
        toks = [r[3] for r in block]
        sentence = detok(toks)
        if "?" in toks:
            continue
        lower = [t.lower() for t in toks]
        sentence_keys = keys_of(sentence)
        # Speculation is not annotated here: a sentence holding a hedge word gives no stated example, and
        # a negated one only from a negation whose cue and scope end before a clause break that precedes
        # every hedge word ("I did not see him, and I would not know him again").
        hedges = [i for i, w in enumerate(lower) if w in HEDGE_WORDS
                  and real_hedge(w, lower[i - 1] if i else "", lower[i + 1] if i + 1 < len(lower) else "")]
        negs = 0 if block[0][7] == "***" else (len(block[0]) - 7) // 3
        cue_tok, in_scope = set(), set()
        taken = set()
        for n in range(negs):
            c = [i for i, r in enumerate(block) if r[7 + 3 * n] != "_"]
            if not c or any(block[i][7 + 3 * n] != block[i][3] for i in c):
                cue_tok.update(c)  # an affixal cue ("im-possible"): its word is neither here nor there
                in_scope.update(i for i, r in enumerate(block) if r[8 + 3 * n] != "_")
                continue
            cue_tok.update(c)
            scope = {i for i, r in enumerate(block) if r[8 + 3 * n] != "_"}
            in_scope.update(scope)
            last = max(c)
            if hedges:
                end = max(scope | set(c))
                if hedges[0] <= end or not any(toks[i] in (",", ";", ":", "and", "but") for i in range(end + 1, hedges[0])):
                    continue
            for i in range(last + 1, min(len(toks), last + 4)):
                if i in scope and block[i][8 + 3 * n] == toks[i] and block[i][5][:2] in ("NN", "VB", "JJ") \
                        and word_token(toks[i]) and one_mention(toks[i], sentence_keys) and i not in taken:
                    out["negated"].append((toks[i], sentence))
                    taken.add(i)
                    break
        if hedges:
            continue
        cands = [i for i, r in enumerate(block) if i not in in_scope and i not in cue_tok and r[5][:2] in ("NN", "VB", "JJ")
                 and word_token(toks[i]) and one_mention(toks[i], sentence_keys)]
        if cands:
            i = cands[len(cands) // 2]
            out["affirmed"].append((toks[i], sentence))
    return out


def bioscope(mirror, path):
    """Examples from a BioScope XML file: <xcope> scopes holding <cue type="negation|speculation">."""
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", git_show(mirror, path))  # the DTD is not needed to read it
    root = ET.fromstring(xml)
    out = {"negated": [], "hedged": [], "affirmed": []}
    for s in root.iter("sentence"):
        text, scopes, cues = [], {}, []

        def walk(e):
            start = sum(len(x) for x in text)
            if e.text:
                text.append(e.text)
            for ch in e:
                walk(ch)
                if ch.tail:
                    text.append(ch.tail)
            end = sum(len(x) for x in text)  # before its tail, which its parent appends
            if e.tag == "xcope":
                scopes[e.get("id")] = (start, end)
            elif e.tag == "cue":
                cues.append((e.get("type"), e.get("ref"), start, end, "".join(e.itertext()).lower()))

        walk(s)
        sentence = "".join(text)
        words = words_of(sentence)
        lower = [w.lower() for w, _, _ in words]
        cue_spans = [(b, e) for _, _, b, e, _ in cues]
        spec = [(scopes[r], (b, e), t) for typ, r, b, e, t in cues if typ == "speculation" and r in scopes
                and real_hedge(t, word_before(sentence, b), word_after(sentence, e))]
        neg = [(scopes[r], (b, e)) for typ, r, b, e, _ in cues if typ == "negation" and r in scopes]
        def inside(span, b, e):
            return span[0] <= b and e <= span[1]
        def after(words, cue_end, b, limit):
            n = sum(1 for _, wb, we in words if cue_end <= wb < b)
            return b >= cue_end and n < limit
        sentence_keys = keys_of(sentence)
        eligible = [k for k, (w, b, e) in enumerate(words) if content(w) and one_mention(w, sentence_keys)
                    and not re.match(r"[A-Za-z0-9_]", sentence[e:e + 1]) and not re.match(r"[0-9_]", sentence[b - 1:b] if b else "")
                    and not any(cb <= b < ce for cb, ce in cue_spans)]
        for label, test in (
                ("negated", lambda b, e: any(inside(sc, b, e) and after(words, ce, b, 3) for sc, (cb, ce) in neg)
                 and not any(inside(sc, b, e) for sc, _, _ in spec)),
                ("hedged", lambda b, e: any(inside(sc, b, e) and after(words, ce, b, 6) for sc, (cb, ce), t in spec)),
                ("affirmed", lambda b, e: not any(inside(sc, b, e) for sc in scopes.values()))):
            ks = [k for k in eligible if test(words[k][1], words[k][2])]
            if ks:
                k = ks[0] if label != "affirmed" else ks[len(ks) // 2]
                out[label].append((words[k][0], sentence))
    return out


def sfu(mirror):
    """Examples from the SFU Review corpus (PALinkA XML: <W> tokens, <cue ID type>, and <xcope> scopes whose
    <ref SRC="..."> names the cues they belong to). Its questions give no example: it does not annotate them, so
    whether a word in one is stated cannot be told. Each label's examples are thinned evenly over the corpus's eight
    kinds of review (books to phones), in file order, to CAP."""
    root_dir = "data/SFU_Review_Corpus_Negation_Speculation/"
    names = subprocess.run(["git", "-C", mirror, "ls-tree", "-r", "--name-only", "HEAD", root_dir], check=True,
                           capture_output=True).stdout.decode("utf-8").split()
    out = {"negated": [], "hedged": [], "affirmed": []}
    for name in sorted(n for n in names if n.endswith(".xml")):
        root = ET.fromstring(git_show(mirror, name).encode("utf-8"))
        for s in root.iter("SENTENCE"):
            toks, cue_of, scopes_of = [], [], []  # per token: its cue (id, type) or None, the scopes holding it
            scope_cues = {}  # scope id -> the cue ids it belongs to

            def walk(e, cue, scopes):
                for ch in e:
                    if ch.tag == "W":
                        toks.append(ch.text or "")
                        cue_of.append(cue)
                        scopes_of.append(scopes)
                    elif ch.tag == "cue":
                        walk(ch, (ch.get("ID"), ch.get("type")), scopes)
                    elif ch.tag == "xcope":
                        ref = ch.find("ref")
                        scope_cues[ch.get("ID")] = set((ref.get("SRC") or "").split()) if ref is not None else set()
                        walk(ch, cue, scopes | {ch.get("ID")})
                    else:
                        walk(ch, cue, scopes)

            walk(s, None, frozenset())
            if not toks or "?" in toks:
                continue
            sentence = detok(toks)
            sentence_keys = keys_of(sentence)
            lower = [t.lower() for t in toks]
            types = {c[0]: c[1] for c in cue_of if c}
            cue_text = {cid: " ".join(lower[i] for i, c in enumerate(cue_of) if c and c[0] == cid) for cid in types}
            first_of = {cid: min(i for i, c in enumerate(cue_of) if c and c[0] == cid) for cid in types}
            last_of = {cid: max(i for i, c in enumerate(cue_of) if c and c[0] == cid) for cid in types}
            real = {cid for cid, t in types.items() if t == "speculation" and real_hedge(
                cue_text[cid], lower[first_of[cid] - 1] if first_of[cid] else "",
                lower[last_of[cid] + 1] if last_of[cid] + 1 < len(lower) else "")}
            spec_scopes = {sc for sc, cs in scope_cues.items() if cs & real}  # a hedge that is no real one denies no denial

            def eligible(i):
                return cue_of[i] is None and word_token(toks[i]) and one_mention(toks[i], sentence_keys)

            for label, typ, reach in (("negated", "negation", 3), ("hedged", "speculation", 6)):
                for cid, t in types.items():
                    if t != typ:
                        continue
                    if typ == "speculation" and cid not in real:
                        continue
                    last = last_of[cid]
                    mine = {sc for sc, cs in scope_cues.items() if cid in cs}
                    ks = [i for i in range(last + 1, min(len(toks), last + 1 + reach)) if eligible(i) and scopes_of[i] & mine
                          and (typ == "speculation" or not scopes_of[i] & spec_scopes)]
                    if ks:
                        out[label].append((toks[ks[0]], sentence))
                        break
            ks = [i for i in range(len(toks)) if eligible(i) and not scopes_of[i]]
            if ks:
                out["affirmed"].append((toks[ks[len(ks) // 2]], sentence))
    for label, xs in out.items():
        if len(xs) > CAP:
            out[label] = [xs[i * len(xs) // CAP] for i in range(CAP)]
    return out


def real_hedge(cue, before, after=""):
    """Whether a speculation cue is a hedge as a grader reads it: not the ability "can" / "cannot" / "can't";
    not the writer's own commitment, "I think" or "we believe" (the cue may be annotated as "think" alone, its
    subject before it); and not a modal of ability, volition, prediction or obligation that carries a negation
    ("could not be detected", "would not help", "won't start", "shouldn't matter", "must not"): the negation
    denies, as BioScope annotates "could not" and as graders read it. "may not" and "might not" (possibly not)
    stay hedges."""
    def norm(t):
        return " ".join(re.sub(r"[^a-z' ]", "'", t.lower()).split())
    cue, after = norm(cue), norm(after)
    if cue in ("can", "cannot", "ca n't", "can't", "ca not", "i think", "we think", "i believe", "we believe"):
        return False
    modal, _, rest = cue.partition(" ")
    if modal in ("could", "would", "'d", "will", "wo", "should", "shall", "must") and (rest or after) in ("not", "n't", "never"):
        return False
    if cue in ("couldn't", "wouldn't", "won't", "shouldn't", "mustn't"):
        return False
    return not (cue in ("think", "believe") and before in ("i", "we"))


def word_before(sentence, offset):
    before = sentence[:offset].lower().split()
    return before[-1] if before else ""


def word_after(sentence, offset):
    """The word after a cue ending at offset: "n't" glued to its modal ("wouldn't") counts as one."""
    m = re.match(r"(n't|n\u0092t|n\u2019t)|\s*([A-Za-z']+)", sentence[offset:])
    return "" if not m else "n't" if m.group(1) else m.group(2).lower()


def write(path, examples, source):
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# {source}: label, phrase, sentence (bench/text/public/extract.py; mapping in docs/text.md)\n")
        for label in ("negated", "hedged", "affirmed"):
            for phrase, sentence in examples.get(label, [])[:CAP]:
                f.write(f"{label}\t{phrase}\t{' '.join(sentence.split())}\n")


def main():
    global CAP
    mirror, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    sem = "data/starsem-st-2012-data/cd-sco/corpus/"
    if sys.argv[3:] == ["dev"]:  # the development files whole: the rules may be read against them
        CAP = 10 ** 9
        write(os.path.join(out, "starsem_dev_all.tsv"),
              starsem(mirror, [sem + "training/SEM-2012-SharedTask-CD-SCO-training-09032012.txt",
                               sem + "dev/SEM-2012-SharedTask-CD-SCO-dev-09032012.txt"]), "*SEM 2012 CD-SCO training and dev, all")
        write(os.path.join(out, "bioscope_abstracts_all.tsv"), bioscope(mirror, "data/bioscope/abstracts.xml"),
              "BioScope abstracts, all")
        return
    if sys.argv[3:] == ["sfu"]:  # GPL-3.0: written where the caller says, never into this repository
        write(os.path.join(out, "sfu_reviews.tsv"), sfu(mirror), "SFU Review corpus (negation and speculation)")
        return
    write(os.path.join(out, "starsem_dev.tsv"),
          starsem(mirror, [sem + "training/SEM-2012-SharedTask-CD-SCO-training-09032012.txt",
                           sem + "dev/SEM-2012-SharedTask-CD-SCO-dev-09032012.txt"]), "*SEM 2012 CD-SCO training and dev")
    write(os.path.join(out, "starsem_test.tsv"),
          starsem(mirror, [sem + "test-gold/SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt",
                           sem + "test-gold/SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt"]), "*SEM 2012 CD-SCO test (gold)")
    write(os.path.join(out, "bioscope_abstracts.tsv"), bioscope(mirror, "data/bioscope/abstracts.xml"), "BioScope abstracts")
    write(os.path.join(out, "bioscope_papers.tsv"), bioscope(mirror, "data/bioscope/full_papers.xml"), "BioScope full papers")


if __name__ == "__main__":
    main()
