"""Markdown tables for docs/stats.md from a full enumeration run.

    mjfast stats enumerate --form all --out fans.csv --json > enum.json
    python tools/enumeration_doc.py fans.csv enum.json     # markdown on stdout
"""
import json
import sys

import pandas as pd


def main(csv_path, json_path):
    df = pd.read_csv(csv_path)
    payload = json.load(open(json_path))
    names = {"regular": "regular", "seven_pairs": "seven pairs", "thirteen_orphans": "thirteen orphans",
             "honors_knitted": "honors-and-knitted", "knitted_straight": "knitted straight",
             "all": "**all forms (each hand once)**"}
    print("| form | distinct hands | physical hands (Π C(4, c_i)) | rows (hand × winning tile) |")
    print("|---|---:|---:|---:|")
    for k, c in payload["counts"].items():
        print(f"| {names[k]} | {c['hands']:,} | {c['physical_hands']:,} | {c['rows']:,} |")
    print(f"\nRun time: {payload['seconds']:.0f} s.\n")
    all_ = df[df["form"] == "all"].set_index("key")
    reg = df[df["form"] == "regular"].set_index("key")
    sp = df[df["form"] == "seven_pairs"].set_index("key")
    rows = all_[all_["wins"] > 0].sort_values(["wins", "id"], ascending=[False, True])
    print("| fan | points | rows with it | share of rows | physical share | mean total with | "
          "share, regular hands | share, seven-pairs hands |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for key, r in rows.iterrows():
        def pct(x):
            return "0" if x == 0 else (f"{100 * x:.4f} %" if x >= 1e-4 else f"{100 * x:.2e} %")
        print(f"| {r['name']} {r['zh']} | {r['points']} | {r['wins']:,} | {pct(r['share'])} | "
              f"{pct(r['physical_share'])} | {r['mean_total_with']:.2f} | {pct(reg.loc[key, 'share'])} | "
              f"{pct(sp.loc[key, 'share'])} |")
    never = all_[all_["wins"] == 0]
    print("\nNever scored in these hands (they need melds, flowers, a discard or a situation flag): "
          + ", ".join(never["name"]) + ".")


if __name__ == "__main__":
    main(*sys.argv[1:3])
