import fs from 'node:fs'
import { getAddress } from 'ethers'
import { ROUNDS, type Round, type Schedule } from './schedule'

export interface Allocation {
  round: Round
  /** base units */
  amount: bigint
}

export interface AllocationBook {
  schedule: Schedule
  byAddress: Map<string, Allocation>
}

interface AllocationFile {
  tge: number
  months?: number
  monthSeconds?: number
  allocations: Record<string, { round: string; amount: string }>
}

export const DEFAULT_MONTHS = 10
export const DEFAULT_MONTH_SECONDS = 30 * 86_400

/** Reads and validates the allocations file; any malformed entry stops the service with the entry named. */
export function loadAllocations(file: string, overrides: Partial<Schedule> = {}): AllocationBook {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as AllocationFile
  const schedule: Schedule = {
    tge: overrides.tge ?? raw.tge,
    months: overrides.months ?? raw.months ?? DEFAULT_MONTHS,
    monthSeconds: overrides.monthSeconds ?? raw.monthSeconds ?? DEFAULT_MONTH_SECONDS,
  }
  if (!Number.isInteger(schedule.tge) || schedule.tge <= 0) throw new Error(`${file}: "tge" must be unix seconds`)
  if (!Number.isInteger(schedule.months) || schedule.months < 0) throw new Error(`${file}: "months" must be a whole number`)
  if (!Number.isInteger(schedule.monthSeconds) || schedule.monthSeconds <= 0)
    throw new Error(`${file}: "monthSeconds" must be positive`)
  const byAddress = new Map<string, Allocation>()
  for (const [address, entry] of Object.entries(raw.allocations ?? {})) {
    if (!(entry.round in ROUNDS)) throw new Error(`${file}: ${address}: unknown round "${entry.round}"`)
    if (!/^\d+$/.test(entry.amount)) throw new Error(`${file}: ${address}: amount must be base units as a decimal string`)
    byAddress.set(getAddress(address.toLowerCase()), { round: entry.round as Round, amount: BigInt(entry.amount) })
  }
  return { schedule, byAddress }
}
