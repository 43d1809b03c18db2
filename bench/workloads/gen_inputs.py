#!/usr/bin/env python3
"""Generates the benchmark's inputs, deterministically (fixed seeds).

  gen_inputs.py sql  OUT SCALE   SQL script for the sqlite3 shell: SCALE
                                 thousand customers; inserts, indexes,
                                 joins, aggregates, updates and deletes
  gen_inputs.py json OUT MB      a JSON document of about MB megabytes
  gen_inputs.py text OUT MB      compressible pseudo-text of MB megabytes
                                 (bzip2's input)

The same arguments always give the same bytes, so native and profiled runs,
and runs on different days, see identical inputs.
"""
import json
import random
import sys

SEED = 20240607

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "zen", "dar",
             "el", "fin", "gor", "hal", "is", "jun", "qua", "bre", "sto", "wy"]


def word(rng, lo=1, hi=4):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(lo, hi)))


def sentence(rng, n):
    return " ".join(word(rng) for _ in range(n))


def quote(s):
    return "'" + s.replace("'", "''") + "'"


def genSql(out, scale):
    rng = random.Random(SEED)
    customers = 1000 * scale
    products = 200 * scale
    orders = 4000 * scale
    w = out.write
    w("CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, city TEXT,"
      " email TEXT, joined INTEGER);\n")
    w("CREATE TABLE product(id INTEGER PRIMARY KEY, title TEXT, category TEXT,"
      " price REAL, blurb TEXT);\n")
    w("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER, day INTEGER,"
      " note TEXT);\n")
    w("CREATE TABLE item(orderid INTEGER, product INTEGER, qty INTEGER,"
      " price REAL);\n")
    cities = [word(rng, 2, 3).capitalize() for _ in range(40)]
    cats = [word(rng, 1, 2) for _ in range(25)]
    w("BEGIN;\n")
    for i in range(1, customers + 1):
        name = word(rng, 2, 3).capitalize() + " " + word(rng, 2, 4).capitalize()
        w("INSERT INTO customer VALUES(%d,%s,%s,%s,%d);\n" % (
            i, quote(name), quote(rng.choice(cities)),
            quote(name.replace(" ", ".").lower() + "@example.org"),
            rng.randint(0, 3650)))
    for i in range(1, products + 1):
        w("INSERT INTO product VALUES(%d,%s,%s,%.2f,%s);\n" % (
            i, quote(sentence(rng, rng.randint(1, 3))), quote(rng.choice(cats)),
            rng.uniform(0.5, 500), quote(sentence(rng, rng.randint(5, 30)))))
    for i in range(1, orders + 1):
        w("INSERT INTO orders VALUES(%d,%d,%d,%s);\n" % (
            i, rng.randint(1, customers), rng.randint(0, 3650),
            quote(sentence(rng, rng.randint(0, 12)))))
        for _ in range(rng.randint(1, 6)):
            w("INSERT INTO item VALUES(%d,%d,%d,%.2f);\n" % (
                i, rng.randint(1, products), rng.randint(1, 9),
                rng.uniform(0.5, 500)))
    w("COMMIT;\n")
    w("CREATE INDEX item_order ON item(orderid);\n")
    w("CREATE INDEX item_product ON item(product);\n")
    w("CREATE INDEX orders_customer ON orders(customer);\n")
    queries = [
        "SELECT c.city, count(*), sum(i.qty*i.price) FROM customer c"
        " JOIN orders o ON o.customer=c.id JOIN item i ON i.orderid=o.id"
        " GROUP BY c.city ORDER BY 3 DESC;",
        "SELECT p.category, avg(i.price), max(i.qty) FROM product p"
        " JOIN item i ON i.product=p.id GROUP BY p.category;",
        "SELECT c.name, group_concat(p.title, '; ') FROM customer c"
        " JOIN orders o ON o.customer=c.id JOIN item i ON i.orderid=o.id"
        " JOIN product p ON p.id=i.product WHERE c.id %% 97 = %d"
        " GROUP BY c.id ORDER BY c.name;",
        "SELECT upper(substr(blurb, 1, 40)), length(blurb) FROM product"
        " WHERE blurb LIKE '%%%s%%' ORDER BY price LIMIT 200;",
        "SELECT o.day/30 AS month, count(DISTINCT o.customer) FROM orders o"
        " GROUP BY month ORDER BY month;",
        "SELECT * FROM (SELECT customer, sum(qty) s FROM orders JOIN item"
        " ON item.orderid=orders.id GROUP BY customer) ORDER BY s DESC LIMIT 50;",
    ]
    for rep in range(6):
        for q in queries:
            if "%d" in q:
                w(q % rng.randint(0, 96) + "\n")
            elif "%s" in q:
                w(q % rng.choice(SYLLABLES) + "\n")
            else:
                w(q + "\n")
        w("UPDATE product SET blurb = blurb || ' ' || %s WHERE id %% 7 = %d;\n"
          % (quote(sentence(rng, 4)), rep))
        w("DELETE FROM item WHERE orderid %% 50 = %d;\n" % rep)
        w("CREATE TEMP TABLE t%d AS SELECT c.name, o.note FROM customer c"
          " JOIN orders o ON o.customer=c.id WHERE o.day %% 11 = %d;\n" % (rep, rep))
        w("SELECT count(*), sum(length(note)) FROM t%d;\n" % rep)
        w("DROP TABLE t%d;\n" % rep)


def genValue(rng, depth):
    r = rng.random()
    if depth > 3 or r < 0.45:
        k = rng.random()
        if k < 0.35:
            return sentence(rng, rng.randint(1, 8))
        if k < 0.6:
            return rng.randint(-10**9, 10**9)
        if k < 0.85:
            return round(rng.uniform(-1e6, 1e6), 6)
        return rng.choice([True, False, None])
    if r < 0.75:
        return {word(rng): genValue(rng, depth + 1)
                for _ in range(rng.randint(1, 8))}
    return [genValue(rng, depth + 1) for _ in range(rng.randint(1, 10))]


def genJson(out, megabytes):
    rng = random.Random(SEED)
    target = int(megabytes * 1024 * 1024)
    out.write('{"records": [\n')
    size = 0
    first = True
    n = 0
    while size < target:
        rec = {"id": n, "name": sentence(rng, 2), "tags":
               [word(rng) for _ in range(rng.randint(0, 6))],
               "payload": genValue(rng, 1)}
        text = json.dumps(rec, sort_keys=True)
        out.write(("" if first else ",\n") + text)
        first = False
        size += len(text) + 2
        n += 1
    out.write('\n], "count": %d}\n' % n)


def genText(out, megabytes):
    rng = random.Random(SEED)
    target = int(megabytes * 1024 * 1024)
    size = 0
    while size < target:
        line = sentence(rng, rng.randint(4, 16))
        if rng.random() < 0.2:
            line += " %d" % rng.randint(0, 10**6)
        out.write(line + "\n")
        size += len(line) + 1


def main(argv):
    if len(argv) != 4 or argv[1] not in ("sql", "json", "text"):
        sys.exit(__doc__)
    kind, path, scale = argv[1], argv[2], float(argv[3])
    with open(path, "w") as out:
        if kind == "sql":
            genSql(out, int(scale))
        elif kind == "json":
            genJson(out, scale)
        else:
            genText(out, scale)


if __name__ == "__main__":
    main(sys.argv)
