interface User {
  id: number;
  name: string;
  manager?: { id: number; name: string };
}

const users: User[] = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace', manager: { id: 1, name: 'Ada' } },
];

export function managerName(userId: number): string {
  const user = users.find((u) => u.id === userId);
  return user!.manager!.name.toUpperCase();
}

export function greeting(userId: number): string {
  return `Hello, ${managerName(userId)}'s report`;
}
