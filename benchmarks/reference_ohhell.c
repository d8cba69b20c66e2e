/* Tight single-threaded C reference for the throughput benchmark: random self-play
 * Oh Hell (RULES.md section F, OpenSpiel's oh_hell), derived from reference_wizard.c.
 *
 *   reference_ohhell rounds COUNT [SEED] [PLAYERS] [CARDS] [START]
 *   reference_ohhell games  COUNT [SEED] [PLAYERS] [START]
 *
 * The default rules only: the 52 suit cards (F1), the hook on (F4), points_per_trick 1
 * and no off_bid_penalty (F6). `rounds` plays single rounds START .. START+COUNT-1 of
 * CARDS cards each (1 .. 51/PLAYERS; 0 or -1, the default, draws it for each round as
 * num_tricks_fixed=-1 does, F3); `games` plays whole up_down games (F7: 1, 2, .., m, ..,
 * 2, 1 cards, m = 51/PLAYERS; the first dealer is random and the deal rotates, F2).
 * PLAYERS is 3..7, default 4. Every seat holds the `random` bot: a uniform allowed bid
 * (the dealer is refused the bid that makes the bids add up to the cards, F4) and a
 * uniform legal card (F5). Trick winner F5, score F6.
 *
 * Random numbers and dealing as in cardsim (rng.py, deal.py, games/exact_tricks/state.py):
 * per round, splitmix64 hashes (seed, unit, sub, stream) into 1 + PLAYERS xoshiro256**
 * states (stream 0 deals, stream 1+s serves seat s); bounded draws use Lemire's
 * unbiased multiply-shift. Stream 0 first draws the dealer (drawn in every round, used
 * in a game's first round and in single rounds), then the round's size where it is
 * drawn, then deals hand by hand from the dealer's left, each card uniform among the
 * cards left (the n-th set bit of the remaining mask, pdep), then turns up a uniform
 * card of the rest: its suit is trump (F3). So the rounds are bit for bit those of the
 * engine, and the per-seat sums printed here equal the engine's.
 *
 * Checks its own invariant (every round's tricks add up to the cards dealt, and every
 * hand is played out; exit 2 otherwise) and prints one JSON line with rounds/s (and
 * games/s), per-seat sums (scores, squares, exact bids; game totals and wins in games
 * mode) and a checksum of every bid, trick count and score, so the loop cannot be
 * optimised away.
 */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __BMI2__
#include <immintrin.h>
#define PDEP "true"
#else
#define PDEP "false"
#endif

#define MAXP 7
#define DECK 52
#define FULL_DECK ((1ull << DECK) - 1)
#define MADE_BID_BONUS 10
#define INLINE static inline __attribute__((always_inline))

typedef struct { uint64_t s[4]; } rng_t;

INLINE uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

INLINE uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

INLINE uint64_t next_u64(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform 0..n-1 (n < 2^32), Lemire's multiply-shift with rejection: exactly unbiased. */
INLINE uint32_t below(rng_t *r, uint32_t n) {
    uint64_t m = (next_u64(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (__builtin_expect(low < n, 0)) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (next_u64(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* cardsim.rng.seed_streams: one key per (seed, unit, sub), one state per stream. */
INLINE void seed_streams(rng_t *rng, int streams, uint64_t seed, uint64_t unit, uint64_t sub) {
    uint64_t key = splitmix64(splitmix64(splitmix64(seed) ^ unit) ^ sub);
    for (int k = 0; k < streams; k++) {
        for (int i = 0; i < 4; i++) rng[k].s[i] = splitmix64(key + (uint64_t)(4 * k + i) * 0x9E3779B97F4A7C15ull);
    }
}

/* The n-th lowest set bit (0-based) of m. */
INLINE int nth_card(uint64_t m, uint32_t n) {
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ull << n, m));
#else
    while (n--) m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

/* Cards: 13 * suit + rank (suits S H D C, rank 0..12 = 2..A; cardsim.cards.FRENCH52). */
static int8_t SUIT_OF[DECK];
static int8_t KEY[4][4][DECK];        /* [trump][led][card]: F5 strength, the higher (strictly) wins */
static uint64_t SUIT_MASK[4];

static void init_tables(void) {
    for (int s = 0; s < 4; s++) SUIT_MASK[s] = 0x1FFFull << (13 * s);
    for (int c = 0; c < DECK; c++) SUIT_OF[c] = (int8_t)(c / 13);
    for (int trump = 0; trump < 4; trump++)
        for (int led = 0; led < 4; led++)
            for (int c = 0; c < DECK; c++) {
                int suit = SUIT_OF[c], rank = c % 13, key = 0; /* other suits: 0 */
                if (suit == trump) key = 60 + rank;
                else if (suit == led) key = 30 + rank;
                KEY[trump][led][c] = (int8_t)key;
            }
}

/* F5: with a led suit, a player holding it plays it; otherwise anything. */
INLINE uint64_t legal_mask(uint64_t hand, int led) {
    if (led < 0) return hand;
    uint64_t follow = hand & SUIT_MASK[led];
    return follow ? follow : hand;
}

/* F6 with points_per_trick 1: a trick a point, 10 more for an exact bid. */
INLINE int score(int bid, int tricks) { return tricks + (bid == tricks ? MADE_BID_BONUS : 0); }

typedef struct {
    int64_t score_sum[MAXP], score_sq[MAXP], exact[MAXP];
    int64_t game_sum[MAXP], game_sq[MAXP], wins60[MAXP]; /* wins in 1/420ths: a tie of k <= 7 shares 420/k */
    int64_t trumps[5]; /* rounds per trump: none (never: a card is always turned, F3), S, H, D, C */
    uint64_t checksum;
} stats_t;

/* One round (F2-F6) with random bots; dealer < 0: the drawn dealer; cards 0: drawn 1..51/P (F3). Adds the
 * scores to total[]. */
INLINE int play_round(const int P, uint64_t seed, uint64_t unit, uint64_t sub, int dealer, int cards,
                      stats_t *st, int64_t *total) {
    rng_t rng[MAXP + 1];
    uint64_t hands[MAXP];
    int bids[MAXP], tricks[MAXP];
    seed_streams(rng, 1 + P, seed, unit, sub);

    int drawn = (int)below(&rng[0], (uint32_t)P);
    if (dealer < 0) dealer = drawn;
    if (cards == 0) cards = 1 + (int)below(&rng[0], (uint32_t)((DECK - 1) / P)); /* F3: num_tricks_fixed=-1 */
    uint64_t deck = FULL_DECK; /* F3: cards each, hand by hand from the dealer's left */
    int left = DECK, seat = dealer + 1 < P ? dealer + 1 : 0;
    for (int i = 0; i < P; i++) {
        uint64_t hand = 0;
        for (int k = 0; k < cards; k++) {
            int card = nth_card(deck, below(&rng[0], (uint32_t)left--));
            hand |= 1ull << card;
            deck ^= 1ull << card;
        }
        hands[seat] = hand;
        seat = seat + 1 < P ? seat + 1 : 0;
    }
    int trump = SUIT_OF[nth_card(deck, below(&rng[0], (uint32_t)left))]; /* F3: a card is left to turn */
    st->trumps[trump + 1]++;

    int first = dealer + 1 < P ? dealer + 1 : 0; /* F4: bids from the dealer's left, the dealer hooked */
    seat = first;
    int bid_total = 0;
    for (int i = 0; i < P; i++) {
        int hooked = i == P - 1 && bid_total <= cards ? cards - bid_total : -1;
        int bid = (int)below(&rng[1 + seat], (uint32_t)(hooked >= 0 ? cards : cards + 1));
        bids[seat] = hooked >= 0 && bid >= hooked ? bid + 1 : bid; /* uniform among the allowed bids */
        bid_total += bids[seat];
        tricks[seat] = 0;
        seat = seat + 1 < P ? seat + 1 : 0;
    }

    int leader = first;
    int8_t (*keys)[DECK] = KEY[trump]; /* F5 keys under this trump, [led][card] */
    for (int t = 0; t < cards; t++) {
        int top_key = -1, winner = leader;
        seat = leader;
        uint64_t legal = hands[seat]; /* the leader plays anything */
        int card = nth_card(legal, below(&rng[1 + seat], (uint32_t)__builtin_popcountll(legal)));
        int led = SUIT_OF[card];
        hands[seat] ^= 1ull << card;
        top_key = keys[led][card];
        seat = seat + 1 < P ? seat + 1 : 0;
#pragma GCC unroll 7
        for (int i = 1; i < P; i++) {
            legal = legal_mask(hands[seat], led);
            card = nth_card(legal, below(&rng[1 + seat], (uint32_t)__builtin_popcountll(legal)));
            hands[seat] ^= 1ull << card;
            int key = keys[led][card], better = key > top_key; /* F5, branch-free: unpredictable */
            top_key = better ? key : top_key;
            winner = better ? seat : winner;
            seat = seat + 1 < P ? seat + 1 : 0;
        }
        tricks[winner]++;
        leader = winner;
    }

    int taken = 0;
    uint64_t rest = 0;
    for (int s = 0; s < P; s++) {
        int p = score(bids[s], tricks[s]);
        taken += tricks[s];
        rest |= hands[s];
        total[s] += p;
        st->score_sum[s] += p;
        st->score_sq[s] += (int64_t)p * p;
        st->exact[s] += bids[s] == tricks[s];
        st->checksum = st->checksum * 0x100000001B3ull ^ (uint64_t)(bids[s] << 24 | tricks[s] << 16 | (p & 0xFFFF));
    }
    if (taken != cards || rest) {
        fprintf(stderr, "invariant broken: unit %" PRIu64 " round %" PRIu64 ": %d tricks for %d cards%s\n",
                unit, sub, taken, cards, rest ? ", cards left in hand" : "");
        exit(2);
    }
    return dealer;
}

/* COUNT single rounds, or COUNT up_down games, of P players; P a constant in each inlined copy. */
INLINE void run(const int P, int games, uint64_t count, uint64_t seed, uint64_t start, int cards, stats_t *st) {
    int64_t total[MAXP];
    for (uint64_t n = 0; n < count; n++) {
        uint64_t unit = start + n;
        memset(total, 0, sizeof total);
        if (!games) {
            play_round(P, seed, unit, 0, -1, cards, st, total);
            continue;
        }
        int dealer = -1, first_dealer = 0, most = (DECK - 1) / P;
        for (int r = 0; r < 2 * most - 1; r++) { /* F7 up_down: r + 1 cards up to m, then down; F2: the deal rotates */
            int d = play_round(P, seed, unit, (uint64_t)r, dealer, r < most ? r + 1 : 2 * most - 1 - r, st, total);
            if (r == 0) first_dealer = d;
            dealer = (first_dealer + r + 1) % P;
        }
        int64_t best = total[0];
        int winners = 0;
        for (int s = 1; s < P; s++) best = total[s] > best ? total[s] : best;
        for (int s = 0; s < P; s++) winners += total[s] == best;
        for (int s = 0; s < P; s++) { /* B9: ties share the win */
            st->game_sum[s] += total[s];
            st->game_sq[s] += total[s] * total[s];
            if (total[s] == best) st->wins60[s] += 420 / winners;
        }
    }
}

static void print_list(const char *name, const int64_t *v, int n, double scale) {
    printf(", \"%s\": [", name);
    for (int s = 0; s < n; s++) {
        if (scale == 1.0) printf(s ? ", %" PRId64 : "%" PRId64, v[s]);
        else printf(s ? ", %.6f" : "%.6f", (double)v[s] / scale);
    }
    printf("]");
}

int main(int argc, char **argv) {
    int games = argc > 1 && strcmp(argv[1], "games") == 0;
    if (argc < 3 || (!games && strcmp(argv[1], "rounds") != 0)) {
        fprintf(stderr, "usage: %s rounds COUNT [SEED] [PLAYERS] [CARDS] [START]\n"
                        "       %s games COUNT [SEED] [PLAYERS] [START]\n", argv[0], argv[0]);
        return 1;
    }
    uint64_t count = strtoull(argv[2], NULL, 10);
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
    int players = argc > 4 ? atoi(argv[4]) : 4;
    int cards = !games && argc > 5 ? atoi(argv[5]) : 0;
    uint64_t start = argc > (games ? 5 : 6) ? strtoull(argv[games ? 5 : 6], NULL, 10) : 0;
    if (cards == -1) cards = 0; /* num_tricks_fixed=-1, as the engine's rule says it */
    if (players < 3 || players > MAXP || cards < 0 || cards > (DECK - 1) / players) {
        fprintf(stderr, "3 to 7 players, and 0 to 51/players cards (0: drawn each round), not %d players, %d cards\n",
                players, cards);
        return 1;
    }
    init_tables();

    stats_t st;
    memset(&st, 0, sizeof st);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    switch (players) { /* one copy of the loop per table size, as a C programmer would template it */
    case 3: run(3, games, count, seed, start, cards, &st); break;
    case 4: run(4, games, count, seed, start, cards, &st); break;
    case 5: run(5, games, count, seed, start, cards, &st); break;
    case 6: run(6, games, count, seed, start, cards, &st); break;
    default: run(7, games, count, seed, start, cards, &st); break;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    uint64_t rounds = games ? count * (uint64_t)(2 * ((DECK - 1) / players) - 1) : count;

    printf("{\"mode\": \"%s\", \"players\": %d, \"cards\": %d, \"rounds\": %" PRIu64, games ? "games" : "rounds",
           players, games ? 0 : cards, rounds);
    if (games) printf(", \"games\": %" PRIu64, count);
    printf(", \"seed\": %" PRIu64 ", \"start\": %" PRIu64 ", \"seconds\": %.6f, \"rounds_per_s\": %.1f", seed, start,
           seconds, seconds > 0 ? (double)rounds / seconds : 0.0);
    if (games) printf(", \"games_per_s\": %.1f", seconds > 0 ? (double)count / seconds : 0.0);
    printf(", \"tricks_invariant\": true, \"checksum\": \"%016" PRIx64 "\"", st.checksum);
    print_list("score_sum", st.score_sum, players, 1.0);
    print_list("score_sq_sum", st.score_sq, players, 1.0);
    print_list("exact_bids", st.exact, players, 1.0);
    print_list("trump_rounds", st.trumps, 5, 1.0);
    if (games) {
        print_list("game_score_sum", st.game_sum, players, 1.0);
        print_list("game_score_sq_sum", st.game_sq, players, 1.0);
        print_list("wins", st.wins60, players, 420.0);
    }
    printf(", \"pdep\": %s}\n", PDEP);
    return 0;
}
