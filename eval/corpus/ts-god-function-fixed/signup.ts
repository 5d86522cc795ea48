import type { Mailer } from './mailer';
import type { UserRepository } from './users';
import { priceOf, type Plan } from './plans';

export interface Signup {
  email: string;
  name: string;
  plan: Plan;
}

export function validateSignup(s: Signup): string | undefined {
  if (!/^[^@\s]+@[^@\s]+$/.test(s.email)) return 'invalid email';
  if (s.name.trim().length === 0) return 'invalid name';
  return undefined;
}

export async function handleSignup(s: Signup, users: UserRepository, mailer: Mailer): Promise<string> {
  const problem = validateSignup(s);
  if (problem) return problem;
  if (await users.exists(s.email)) return 'exists';
  await users.add({ email: s.email });
  await mailer.welcome(s.email, s.name, priceOf(s.plan));
  return 'ok';
}
