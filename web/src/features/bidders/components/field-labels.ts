/** The bidder fields as the bidder screens label them (the form, the merge dialog, toasts). */
export const bidderFieldLabels: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  street: 'Street',
  city: 'City',
  state: 'State',
  zip: 'ZIP / postcode',
  country: 'Country',
  status: 'Status',
  preferredCategories: 'Preferred categories',
};
