/** A small embedded dataset: revenue by quarter and region, in thousands of euros. */
export const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export type Quarter = (typeof QUARTERS)[number];

export const REVENUE: Record<Quarter, Record<'EMEA' | 'Americas' | 'APAC', number>> = {
  Q1: { EMEA: 410, Americas: 520, APAC: 230 },
  Q2: { EMEA: 455, Americas: 498, APAC: 260 },
  Q3: { EMEA: 470, Americas: 560, APAC: 301 },
  Q4: { EMEA: 530, Americas: 610, APAC: 344 },
};

/** Exchange rates from euros, for reports in another currency. */
export const RATES = { EUR: 1, USD: 1.08, GBP: 0.85 } as const;
export type Currency = keyof typeof RATES;

export function totalOf(quarter: Quarter): number {
  return Object.values(REVENUE[quarter]).reduce((sum, value) => sum + value, 0);
}

export function isQuarter(value: string): value is Quarter {
  return (QUARTERS as readonly string[]).includes(value);
}
