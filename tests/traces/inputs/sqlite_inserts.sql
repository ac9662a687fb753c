-- hwprof shipped trace input: sqlite3 :memory: < sqlite_inserts.sql
-- A table with an index, 60 rows inserted by 6 multi-row INSERT statements, then queries.
CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL, category INTEGER, price REAL, qty INTEGER);
CREATE INDEX item_cat_price ON item(category, price);
BEGIN;
INSERT INTO item(name, category, price, qty) VALUES
  ('theta-omicron-1', 2, 327.13, 180),
  ('lambda-delta-2', 4, 215.65, 61),
  ('upsilon-beta-3', 3, 250.86, 488),
  ('xi-gamma-4', 5, 134.92, 419),
  ('omicron-chi-5', 2, 131.21, 94),
  ('delta-sigma-6', 6, 216.39, 111),
  ('omicron-lambda-7', 0, 198.54, 310),
  ('omicron-tau-8', 5, 521.81, 466),
  ('theta-theta-9', 5, 21.41, 22),
  ('rho-zeta-10', 5, 62.27, 340);
INSERT INTO item(name, category, price, qty) VALUES
  ('zeta-kappa-11', 3, 343.63, 356),
  ('omicron-mu-12', 2, 324.37, 480),
  ('zeta-pi-13', 6, 21.11, 325),
  ('tau-epsilon-14', 1, 348.87, 156),
  ('zeta-tau-15', 1, 361.28, 157),
  ('nu-sigma-16', 1, 404.92, 272),
  ('kappa-sigma-17', 4, 242.05, 450),
  ('alpha-pi-18', 1, 31.59, 388),
  ('alpha-tau-19', 6, 422.69, 473),
  ('kappa-zeta-20', 5, 473.53, 51);
INSERT INTO item(name, category, price, qty) VALUES
  ('beta-gamma-21', 4, 191.28, 397),
  ('omega-beta-22', 1, 238.04, 375),
  ('sigma-sigma-23', 1, 67.13, 290),
  ('sigma-tau-24', 0, 230.28, 212),
  ('epsilon-phi-25', 0, 137.54, 69),
  ('eta-kappa-26', 5, 477.35, 201),
  ('psi-beta-27', 0, 80.61, 316),
  ('tau-beta-28', 0, 145.13, 457),
  ('phi-iota-29', 5, 29.28, 63),
  ('xi-epsilon-30', 2, 302.61, 391);
INSERT INTO item(name, category, price, qty) VALUES
  ('rho-omega-31', 5, 178.01, 409),
  ('gamma-tau-32', 3, 95.79, 129),
  ('zeta-omega-33', 3, 559.73, 181),
  ('kappa-chi-34', 2, 473.28, 176),
  ('gamma-alpha-35', 6, 368.37, 295),
  ('epsilon-nu-36', 4, 311.03, 4),
  ('lambda-beta-37', 5, 10.03, 246),
  ('iota-nu-38', 4, 494.90, 252),
  ('upsilon-kappa-39', 1, 363.07, 82),
  ('theta-gamma-40', 4, 526.34, 404);
INSERT INTO item(name, category, price, qty) VALUES
  ('xi-lambda-41', 6, 584.53, 107),
  ('nu-beta-42', 5, 207.72, 123),
  ('omicron-eta-43', 5, 598.98, 408),
  ('xi-tau-44', 3, 195.69, 435),
  ('lambda-zeta-45', 4, 50.23, 114),
  ('rho-mu-46', 0, 273.83, 152),
  ('kappa-upsilon-47', 4, 353.00, 94),
  ('theta-pi-48', 3, 476.67, 101),
  ('rho-upsilon-49', 4, 536.08, 417),
  ('theta-psi-50', 0, 55.30, 102);
INSERT INTO item(name, category, price, qty) VALUES
  ('iota-phi-51', 5, 588.45, 470),
  ('delta-psi-52', 6, 550.51, 68),
  ('omicron-theta-53', 5, 345.80, 131),
  ('nu-tau-54', 0, 596.05, 433),
  ('gamma-tau-55', 4, 278.86, 377),
  ('xi-gamma-56', 5, 17.31, 309),
  ('sigma-eta-57', 5, 476.14, 126),
  ('iota-sigma-58', 2, 361.00, 57),
  ('lambda-sigma-59', 4, 52.75, 477),
  ('theta-beta-60', 5, 166.51, 196);
COMMIT;
SELECT category, count(*), round(sum(price * qty), 2) FROM item GROUP BY category ORDER BY category;
SELECT name, price FROM item WHERE category = 3 AND price BETWEEN 100 AND 400 ORDER BY price;
DELETE FROM item WHERE qty < 50;
SELECT count(*), min(price), max(price) FROM item;
