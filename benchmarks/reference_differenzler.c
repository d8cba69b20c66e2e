/* Tight single-threaded C reference for the throughput benchmark: random self-play
 * Differenzler rounds (RULES.md section A), written as a C programmer would.
 *
 *   reference_differenzler ROUNDS [SEED] [START]
 *
 * Plays rounds START .. START+ROUNDS-1 of SEED with four `random` bots: uniform
 * prediction 0..157, uniform legal card. Same rules as cardsim: 36 cards, nine each,
 * trump = the dealer's last card (A5), legal cards per A8 (the Puur is never forced;
 * no undertrumping when following), trick winner A9, points A4 with +5 for the last
 * trick, penalty |prediction - points| (A10, exact_bonus 0).
 *
 * Random numbers as in cardsim/rng.py: per round, splitmix64 hashes (seed, round, 0,
 * stream) into five xoshiro256** states (stream 0 deals, stream 1+s serves seat s), and
 * bounded draws use Lemire's unbiased multiply-shift. The deal is cardsim's bitmask deal:
 * nine cards each from the dealer's left, each the n-th of the cards left (pdep), the
 * dealer's hand what remains, the trump card a random one of the dealer's nine. The
 * per-seat sums of penalties and of their squares are printed so throughput.py can check
 * that the engine's mean penalties agree (they match exactly while the engine deals the same way).
 *
 * Checks its own invariant (every round distributes exactly 157 points; exit 2
 * otherwise) and prints one JSON line with rounds/s and a checksum of all rounds,
 * so the loop cannot be optimised away.
 */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __BMI2__
#include <immintrin.h>
#define PDEP "true"
#else
#define PDEP "false"
#endif

#define PLAYERS 4
#define TRICKS 9

typedef struct { uint64_t s[4]; } rng_t;

static inline uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next_u64(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform 0..n-1 (n < 2^32), Lemire's multiply-shift with rejection: exactly unbiased. */
static inline uint32_t below(rng_t *r, uint32_t n) {
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
static inline void seed_streams(rng_t *rng, int streams, uint64_t seed, uint64_t unit, uint64_t sub) {
    uint64_t key = splitmix64(splitmix64(splitmix64(seed) ^ unit) ^ sub);
    for (int k = 0; k < streams; k++) {
        for (int i = 0; i < 4; i++) rng[k].s[i] = splitmix64(key + (uint64_t)(4 * k + i) * 0x9E3779B97F4A7C15ULL);
    }
}

/* The n-th lowest set bit (0-based) of m. */
static inline int nth_card(uint64_t m, uint32_t n) {
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ull << n, m));
#else
    while (n--) m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

/* Cards: index 9*suit + rank, rank 0..8 = 6 7 8 9 T J Q K A. */
static const int PLAIN_VALUE[9] = {0, 0, 0, 0, 10, 2, 3, 4, 11};
static const int TRUMP_VALUE[9] = {0, 0, 0, 14, 10, 20, 3, 4, 11};
static const int TRUMP_LEVEL[9] = {0, 1, 2, 7, 3, 8, 4, 5, 6}; /* J 9 A K Q 10 8 7 6 high to low */

static int POINTS[4][36];        /* value of each card under each trump suit */
static int8_t KEY[4][4][36];     /* [trump][led][card]: A9 strength, trump 20+level > led 10+rank > 0 */
static int8_t LEVEL[4][36];      /* trump level of a card, -1 if not a trump */
static uint64_t ABOVE[4][10];    /* trumps strictly above level-1 (index 0: all trumps) */
static uint64_t SUIT[4], NOT_PUUR[4];

static void init_tables(void) {
    for (int t = 0; t < 4; t++) {
        SUIT[t] = 0x1FFull << (9 * t);
        NOT_PUUR[t] = ~(1ull << (9 * t + 5));
        for (int c = 0; c < 36; c++) {
            int s = c / 9, r = c % 9;
            POINTS[t][c] = s == t ? TRUMP_VALUE[r] : PLAIN_VALUE[r];
            LEVEL[t][c] = s == t ? TRUMP_LEVEL[r] : -1;
            for (int led = 0; led < 4; led++)
                KEY[t][led][c] = s == t ? 20 + TRUMP_LEVEL[r] : (s == led ? 10 + r : 0);
        }
        for (int level = -1; level < 9; level++) {
            uint64_t m = 0;
            for (int r = 0; r < 9; r++)
                if (TRUMP_LEVEL[r] > level) m |= 1ull << (9 * t + r);
            ABOVE[t][level + 1] = m;
        }
    }
}

/* A8: the legal cards of hand; led < 0 when leading, top_trump = level of the best trump in the trick or -1. */
static inline uint64_t legal_mask(uint64_t hand, int led, int trump, int top_trump) {
    if (led < 0) return hand;
    uint64_t trumps = hand & SUIT[trump];
    if (led == trump) return (trumps & NOT_PUUR[trump]) ? trumps : hand;
    uint64_t follow = hand & SUIT[led];
    return follow ? follow | (trumps & ABOVE[trump][top_trump + 1]) : hand;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s ROUNDS [SEED] [START]\n", argv[0]);
        return 1;
    }
    uint64_t rounds = strtoull(argv[1], NULL, 10);
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
    uint64_t start = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
    init_tables();

    uint64_t penalty_sum[PLAYERS] = {0}, penalty_sq[PLAYERS] = {0}, checksum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t n = 0; n < rounds; n++) {
        uint64_t unit = start + n;
        rng_t rng[PLAYERS + 1];
        seed_streams(rng, PLAYERS + 1, seed, unit, 0);

        /* A6 + A5: First Hand at random; nine cards each from the dealer's left, each uniform among the
         * cards left (the last hand is what remains); the dealer shows one of their nine at random: the
         * same as a shuffled deck whose 36th card is the dealer's last (cardsim/deal.py). */
        int first_hand = (int)below(&rng[0], PLAYERS);
        int dealer = (first_hand + PLAYERS - 1) & 3;
        uint64_t deck = (1ull << 36) - 1, hands[PLAYERS];
        uint32_t left = 36;
        for (int i = 0; i < PLAYERS - 1; i++) {
            uint64_t h = 0;
            for (int k = 0; k < TRICKS; k++) {
                uint64_t card = 1ull << nth_card(deck, below(&rng[0], left--));
                h |= card;
                deck ^= card;
            }
            hands[(dealer + 1 + i) & 3] = h;
        }
        hands[dealer] = deck;
        int trump = nth_card(deck, below(&rng[0], TRICKS)) / 9;

        int prediction[PLAYERS], points[PLAYERS] = {0};
        for (int s = 0; s < PLAYERS; s++) prediction[s] = (int)below(&rng[1 + s], 158);

        int leader = first_hand;
        for (int t = 0; t < TRICKS; t++) {
            int led = -1, top_key = -1, top_trump = -1, winner = leader, won = t == TRICKS - 1 ? 5 : 0;
            for (int i = 0; i < PLAYERS; i++) {
                int seat = (leader + i) & 3;
                uint64_t legal = legal_mask(hands[seat], led, trump, top_trump);
                int card = nth_card(legal, below(&rng[1 + seat], (uint32_t)__builtin_popcountll(legal)));
                hands[seat] ^= 1ull << card;
                if (i == 0) led = card / 9;
                int key = KEY[trump][led][card];
                if (key > top_key) { top_key = key; winner = seat; }
                if (LEVEL[trump][card] > top_trump) top_trump = LEVEL[trump][card];
                won += POINTS[trump][card];
            }
            points[winner] += won;
            leader = winner;
        }

        int total = 0;
        for (int s = 0; s < PLAYERS; s++) {
            int p = abs(prediction[s] - points[s]);
            total += points[s];
            penalty_sum[s] += (uint64_t)p;
            penalty_sq[s] += (uint64_t)(p * p);
            checksum = checksum * 0x100000001B3ull ^ (uint64_t)(points[s] << 8 | p);
        }
        if (total != 157) {
            fprintf(stderr, "invariant broken: round %" PRIu64 " distributed %d points, not 157\n", unit, total);
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("{\"rounds\": %" PRIu64 ", \"seed\": %" PRIu64 ", \"start\": %" PRIu64 ", \"seconds\": %.6f, "
           "\"rounds_per_s\": %.1f, \"points_invariant\": true, \"checksum\": \"%016" PRIx64 "\", "
           "\"penalty_sum\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "], "
           "\"penalty_sq_sum\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "], \"pdep\": %s}\n",
           rounds, seed, start, seconds, seconds > 0 ? (double)rounds / seconds : 0.0, checksum,
           penalty_sum[0], penalty_sum[1], penalty_sum[2], penalty_sum[3],
           penalty_sq[0], penalty_sq[1], penalty_sq[2], penalty_sq[3], PDEP);
    return 0;
}
