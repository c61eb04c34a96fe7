// A database of the Chinook sample's shape and size (no npm package ships the sample):
// Artist, Album, Track, Genre, MediaType, Playlist, PlaylistTrack, Employee, Customer,
// Invoice, InvoiceLine with the sample's row counts (Track 3,503, InvoiceLine 2,240,
// PlaylistTrack 8,715...), foreign keys and CHECK constraints, generated deterministically
// so attack tests can count exactly what an attack would have changed.
import Database from 'better-sqlite3';
import { makeTempTree } from '../fixtures/temp-tree.js';
import type { SqliteFixture } from '../fixtures/sqlite-db.js';

/** Row counts of the generated tables (those of the Chinook sample). */
export const CHINOOK_ROWS = {
  Artist: 275,
  Album: 347,
  MediaType: 5,
  Genre: 25,
  Track: 3503,
  Playlist: 18,
  PlaylistTrack: 8715,
  Employee: 8,
  Customer: 59,
  Invoice: 412,
  InvoiceLine: 2240,
} as const;

/** Tracks whose Name contains "Love" (capitalised): `LIKE '%love%'` counts them, case-sensitive LIKE finds none. */
export const CHINOOK_LOVE_TRACKS = 219;

const SCHEMA = `
CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name TEXT);
CREATE TABLE Album (AlbumId INTEGER PRIMARY KEY, Title TEXT NOT NULL, ArtistId INTEGER NOT NULL REFERENCES Artist (ArtistId));
CREATE TABLE MediaType (MediaTypeId INTEGER PRIMARY KEY, Name TEXT);
CREATE TABLE Genre (GenreId INTEGER PRIMARY KEY, Name TEXT);
CREATE TABLE Track (
  TrackId INTEGER PRIMARY KEY, Name TEXT NOT NULL,
  AlbumId INTEGER REFERENCES Album (AlbumId), MediaTypeId INTEGER NOT NULL REFERENCES MediaType (MediaTypeId),
  GenreId INTEGER REFERENCES Genre (GenreId), Composer TEXT,
  Milliseconds INTEGER NOT NULL CHECK (Milliseconds > 0), Bytes INTEGER CHECK (Bytes >= 0),
  UnitPrice NUMERIC(10,2) NOT NULL CHECK (UnitPrice >= 0));
CREATE TABLE Playlist (PlaylistId INTEGER PRIMARY KEY, Name TEXT);
CREATE TABLE PlaylistTrack (
  PlaylistId INTEGER NOT NULL REFERENCES Playlist (PlaylistId), TrackId INTEGER NOT NULL REFERENCES Track (TrackId),
  PRIMARY KEY (PlaylistId, TrackId)) WITHOUT ROWID;
CREATE TABLE Employee (
  EmployeeId INTEGER PRIMARY KEY, LastName TEXT NOT NULL, FirstName TEXT NOT NULL, Title TEXT,
  ReportsTo INTEGER REFERENCES Employee (EmployeeId), BirthDate TEXT, HireDate TEXT, Address TEXT, City TEXT,
  State TEXT, Country TEXT, PostalCode TEXT, Phone TEXT, Fax TEXT, Email TEXT);
CREATE TABLE Customer (
  CustomerId INTEGER PRIMARY KEY, FirstName TEXT NOT NULL, LastName TEXT NOT NULL, Company TEXT, Address TEXT,
  City TEXT, State TEXT, Country TEXT, PostalCode TEXT, Phone TEXT, Fax TEXT, Email TEXT NOT NULL,
  SupportRepId INTEGER REFERENCES Employee (EmployeeId));
CREATE TABLE Invoice (
  InvoiceId INTEGER PRIMARY KEY, CustomerId INTEGER NOT NULL REFERENCES Customer (CustomerId),
  InvoiceDate TEXT NOT NULL, BillingAddress TEXT, BillingCity TEXT, BillingState TEXT, BillingCountry TEXT,
  BillingPostalCode TEXT, Total NUMERIC(10,2) NOT NULL CHECK (Total >= 0));
CREATE TABLE InvoiceLine (
  InvoiceLineId INTEGER PRIMARY KEY, InvoiceId INTEGER NOT NULL REFERENCES Invoice (InvoiceId),
  TrackId INTEGER NOT NULL REFERENCES Track (TrackId), UnitPrice NUMERIC(10,2) NOT NULL CHECK (UnitPrice >= 0),
  Quantity INTEGER NOT NULL CHECK (Quantity > 0));
CREATE INDEX IFK_AlbumArtistId ON Album (ArtistId);
CREATE INDEX IFK_TrackAlbumId ON Track (AlbumId);
CREATE INDEX IFK_TrackGenreId ON Track (GenreId);
CREATE INDEX IFK_PlaylistTrackTrackId ON PlaylistTrack (TrackId);
CREATE INDEX IFK_InvoiceCustomerId ON Invoice (CustomerId);
CREATE INDEX IFK_InvoiceLineInvoiceId ON InvoiceLine (InvoiceId);
CREATE INDEX IFK_InvoiceLineTrackId ON InvoiceLine (TrackId);
`;

const WORDS = ['Night', 'River', 'Fire', 'Blue', 'Stone', 'Heart', 'Road', 'Dream', 'Rain', 'Gold', 'Shadow', 'Light', 'Wild', 'Time', 'Home', 'Star'];

/** Writes the Chinook-shaped database into `file` (which must not exist). */
export function writeChinook(file: string): void {
  const db = new Database(file);
  try {
    db.exec(SCHEMA);
    const word = (i: number) => WORDS[i % WORDS.length];
    db.transaction(() => {
      const n = CHINOOK_ROWS;
      const insert = (sql: string, count: number, row: (i: number) => unknown[]) => {
        const stmt = db.prepare(sql);
        for (let i = 1; i <= count; i++) stmt.run(...row(i));
      };
      insert('INSERT INTO Artist VALUES (?, ?)', n.Artist, (i) => [i, `Artist ${word(i)} ${i}`]);
      insert('INSERT INTO Album VALUES (?, ?, ?)', n.Album, (i) => [i, `${word(i * 7)} ${word(i * 3)} Album ${i}`, ((i * 13) % n.Artist) + 1]);
      insert('INSERT INTO MediaType VALUES (?, ?)', n.MediaType, (i) => [i, `Media ${i}`]);
      insert('INSERT INTO Genre VALUES (?, ?)', n.Genre, (i) => [i, `Genre ${word(i)}`]);
      // Every 16th track from the first (219 of 3,503) has "Love" in its name.
      insert('INSERT INTO Track VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', n.Track, (i) => [
        i,
        i % 16 === 1 ? `Love ${word(i)} ${i}` : `${word(i)} ${word(i * 5 + 1)} ${i}`,
        ((i * 7) % n.Album) + 1,
        (i % n.MediaType) + 1,
        (i % n.Genre) + 1,
        i % 5 === 0 ? null : `Composer ${word(i * 11)}`,
        180_000 + ((i * 7919) % 240_000),
        3_000_000 + ((i * 104_729) % 9_000_000),
        i % 10 === 0 ? 1.99 : 0.99,
      ]);
      insert('INSERT INTO Playlist VALUES (?, ?)', n.Playlist, (i) => [i, `Playlist ${word(i)}`]);
      // 8,715 (playlist, track) pairs: playlist p holds a stride of the tracks.
      const pair = db.prepare('INSERT INTO PlaylistTrack VALUES (?, ?)');
      let pairs = 0;
      for (let p = 1; pairs < n.PlaylistTrack; p++) {
        for (let t = p; t <= n.Track && pairs < n.PlaylistTrack; t += p <= 3 ? 1 : p) {
          pair.run(((p - 1) % n.Playlist) + 1, t);
          pairs++;
        }
      }
      insert('INSERT INTO Employee VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', n.Employee, (i) => [
        i, `Last${i}`, `First${i}`, i === 1 ? 'General Manager' : 'Sales Support Agent', i === 1 ? null : 1,
        `19${60 + i}-01-01`, `2002-0${i}-01`, `${i} Main St`, 'Calgary', 'AB', 'Canada', `T2P ${i}A${i}`, `+1 403 555 01${i}0`, `+1 403 555 02${i}0`, `employee${i}@chinookcorp.com`,
      ]);
      insert('INSERT INTO Customer VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', n.Customer, (i) => [
        i, `Customer${i}`, `Family${i}`, i % 4 === 0 ? `Company ${i}` : null, `${i} High St`, `City ${word(i)}`, null,
        `Country ${i % 24}`, `${10_000 + i}`, `+1 555 ${1000 + i}`, null, `customer${i}@example.com`, (i % 3) + 3,
      ]);
      insert('INSERT INTO Invoice VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', n.Invoice, (i) => [
        i, ((i * 17) % n.Customer) + 1, `2021-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')} 00:00:00`,
        `${i} High St`, `City ${word(i)}`, null, `Country ${i % 24}`, `${10_000 + i}`, 0,
      ]);
      insert('INSERT INTO InvoiceLine VALUES (?, ?, ?, ?, ?)', n.InvoiceLine, (i) => [i, ((i - 1) % n.Invoice) + 1, ((i * 37) % n.Track) + 1, i % 10 === 0 ? 1.99 : 0.99, 1]);
      db.exec('UPDATE Invoice SET Total = (SELECT round(sum(UnitPrice * Quantity), 2) FROM InvoiceLine l WHERE l.InvoiceId = Invoice.InvoiceId)');
    })();
  } finally {
    db.close();
  }
}

/** A fresh Chinook-shaped database file in a temp directory. */
export async function makeChinookDb(): Promise<SqliteFixture> {
  const tree = await makeTempTree({}, 'mcp-chinook-');
  const file = tree.path('chinook.db');
  writeChinook(file);
  return {
    ...tree,
    file,
    exec(statement) {
      const other = new Database(file);
      try {
        other.exec(statement);
      } finally {
        other.close();
      }
    },
  };
}
