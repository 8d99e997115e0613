#!/usr/bin/env python3
"""Tesseris: a search's choices with and without the other hands in view, position by position
(docs/results.md, 2026-12-05 (late morning)). The positions come from examples/tesseris_views.rs
(a tab-separated file: game, ply, observation, open-hands observation, move played).

  search BIN VIEWS COL NODES OUT [STEP]  search column COL (0: the observation, 1: the open
                                         hands) of every STEP-th position with BIN at NODES
                                         playouts, one thread; write each root's candidates
  steals VIEWS A B                       A's and B's steal rates by how many of the other
                                         hand's real cards the mover needs, and by how long
                                         its unknown cards were kept (B: the open hands)
  regret A B                             where A's choice differs from B's, and what B's search
                                         values the difference at (B: the open hands, a judge)
  mode2 VIEWS                            the views with only the other hand's cards the mover
                                         needs written out (a new open column)
"""
import collections, json, re, subprocess, sys


def fld(text, key):
    return re.search(key + r"=(\S+)", text).group(1)


def rows(views):
    for line in open(views):
        gi, ply, obs, opn, played = line.rstrip("\n").split("\t")
        yield (int(gi), int(ply)), obs, opn, played


def load(f):
    return {(d["gi"], d["ply"]): d for d in map(json.loads, open(f))}


def search(binary, views, col, nodes, out, step=1):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()
    for s in ["uci", "setoption name Game value tesseris", "setoption name Threads value 1", "isready"]:
        send(s)
    while p.stdout.readline().strip() != "readyok":
        pass
    with open(out, "w") as o:
        for k, (key, obs, opn, played) in enumerate(rows(views)):
            if k % step:
                continue
            send("ucinewgame")
            send("position fen " + (obs if col == 0 else opn))
            send(f"go nodes {nodes}")
            cands, best = {}, None
            while best is None:
                l = p.stdout.readline()
                if not l:
                    sys.exit("the engine ended")
                w = l.split()
                if l.startswith("info string candidate"):
                    cands[w[3]] = [int(w[5]), float(w[9])]
                elif l.startswith("info string error"):
                    print(l.strip(), file=sys.stderr)
                elif w and w[0] == "bestmove":
                    best = w[1]
            o.write(json.dumps({"gi": key[0], "ply": key[1], "played": played, "best": best, "cands": cands}) + "\n")
    send("quit")


def need_of(obs, opn):
    """How many of the other hand's real cards complete an objective the mover still needs."""
    seat = int(fld(obs, "seat")) - 1
    mine = {c for c in fld(obs, "obj").split("/")[seat].split(",") if not c.endswith("+")}
    hand = {c[:2] for c in fld(obs, "hands").split("/")[seat].split(",")}
    want = mine - hand
    other = fld(opn, "hands").split("/")[1 - seat].split(",")
    kept = [c for c in fld(obs, "hands").split("/")[1 - seat].split(",") if c.startswith("?!")]
    turns = sum(int(c[2:]) if len(c) > 2 else 1 for c in kept)
    return len(want), sum(1 for c in other if c in want), turns


def steals(views, a, b):
    A, B = load(a), load(b)
    by_need = collections.defaultdict(lambda: [0, 0, 0])
    by_kept = collections.defaultdict(lambda: [0, 0, 0, 0])
    for key, obs, opn, _ in rows(views):
        if key not in A or key not in B:
            continue
        want, need, turns = need_of(obs, opn)
        sa, sb = "h" in A[key]["best"][4:], "h" in B[key]["best"][4:]
        t = by_need[min(need, 3)]
        t[0] += sa; t[1] += sb; t[2] += 1
        bucket = (min(want, 3), 0 if turns == 0 else 1 if turns <= 4 else 2 if turns <= 8 else 3)
        u = by_kept[bucket]
        u[0] += sa; u[1] += sb; u[2] += need; u[3] += 1
    print("needed cards in the other hand: positions, A steals, B steals")
    for n in sorted(by_need):
        t = by_need[n]
        print(f"  {n}{'+' if n == 3 else ' '} {t[2]:5d} {t[0]/t[2]:.3f} {t[1]/t[2]:.3f}")
    print("(shapes wanted, kept turns 0 / 1-4 / 5-8 / 9+): positions, A steals, B steals, mean needed cards")
    for k in sorted(by_kept):
        u = by_kept[k]
        if u[3] >= 20:
            print(f"  {k} {u[3]:5d} {u[0]/u[3]:.2f} {u[1]/u[3]:.2f} {u[2]/u[3]:.2f}")


def parts(m):
    return re.match(r"([OTC]\d)([po]\d)(d|p\d|h\d)$", m).groups()


def regret(a, b):
    A, B = load(a), load(b)
    kinds, loss, n, total = collections.Counter(), collections.Counter(), 0, 0.0
    for k in A.keys() & B.keys():
        ma, mb = A[k]["best"], B[k]["best"]
        r = B[k]["cands"]
        g = r[mb][1] - r[ma][1] if ma in r else 0.0
        n += 1
        total += g
        if ma == mb:
            kinds["same"] += 1
            continue
        (ca, da, wa), (cb, db, wb) = parts(ma), parts(mb)
        what = []
        if (da[0] == "o") != (db[0] == "o"):
            what.append("completes or not")
        elif ca != cb:
            what.append("card")
        elif da != db:
            what.append("pile")
        if wa[0] != wb[0]:
            what.append("draw: deck/pile/steal")
        elif wa != wb:
            what.append("which pile drawn")
        w = " + ".join(what)
        kinds[w] += 1
        loss[w] += g
    print(f"positions {n}; mean reward B's search gives up to A's choices: {total / n:.4f}")
    for w, c in kinds.most_common():
        print(f"  {w:34s} {c:5d} ({c / n:.3f})  reward given up per position {loss[w] / n:.4f}")


def mode2(views):
    for key, obs, opn, played in rows(views):
        seat = int(fld(obs, "seat")) - 1
        mine = {c for c in fld(obs, "obj").split("/")[seat].split(",") if not c.endswith("+")}
        hands = fld(opn, "hands").split("/")
        other = hands[1 - seat].split(",")
        hands[1 - seat] = ",".join([c for c in other if c in mine] + ["?"] * sum(c not in mine for c in other))
        print("\t".join([str(key[0]), str(key[1]), obs, re.sub(r"hands=\S+", "hands=" + "/".join(hands), obs), played]))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "search":
        search(args[0], args[1], int(args[2]), int(args[3]), args[4], int(args[5]) if len(args) > 5 else 1)
    elif cmd == "steals":
        steals(*args)
    elif cmd == "regret":
        regret(*args)
    elif cmd == "mode2":
        mode2(*args)
    else:
        sys.exit(__doc__)
